/* test_engine.c — the engine client's reading of one line of another engine's output
 * (uci/engine.h: engine_parse_output): the shapes engines print (Stockfish, perftree,
 * others), lines to skip, text that is no count, and counts that cannot be right, each
 * with a one-line reason. The conversation with real child processes is tested in
 * test_check.c. */
#include "support.h"

#include "../uci/engine.h"

TestSuite(engine, .timeout = 60);

static EngineOutput parse(const char *line) {
    EngineOutput o;
    EngineOutputKind kind = engine_parse_output(line, strlen(line), &o);
    cr_assert_eq(kind, o.kind, "the kind returned is the kind set");
    return o;
}

static void assert_move(const char *line, const char *move, const char *nodes) {
    EngineOutput o = parse(line);
    char text[COUNT_TEXT_SIZE];
    cr_assert_eq(o.kind, ENGINE_OUTPUT_MOVE, "'%s': %s", line, o.reason);
    cr_assert_str_eq(o.move, move, "'%s'", line);
    cr_assert_str_eq(count_format(o.nodes, false, text), nodes, "'%s'", line);
    cr_assert_str_eq(o.reason, "");
}

static void assert_total(const char *line, const char *nodes) {
    EngineOutput o = parse(line);
    char text[COUNT_TEXT_SIZE];
    cr_assert_eq(o.kind, ENGINE_OUTPUT_TOTAL, "'%s': %s", line, o.reason);
    cr_assert_str_eq(count_format(o.nodes, false, text), nodes, "'%s'", line);
}

static void assert_refused(const char *line, EngineOutputKind kind, const char *reason) {
    EngineOutput o = parse(line);
    cr_assert_eq(o.kind, kind, "'%s' read as kind %d", line, (int)o.kind);
    cr_assert_str_eq(o.reason, reason, "'%s'", line);
}

Test(engine, reads_the_move_lines_of_stockfish_and_perftree) {
    assert_move("a2a3: 380", "a2a3", "380");
    assert_move("e2e4 20", "e2e4", "20");
    assert_move("  g1f3:\t44  \r", "g1f3", "44");
    assert_move("a7a8q: 1", "a7a8q", "1");
    assert_move("b7b8N 1", "b7b8N", "1");
    assert_move("e1h1: 2039", "e1h1", "2039"); /* Chess960 castling, king takes rook */
    assert_move("e2e4 = 0", "e2e4", "0");
    assert_move("h2h4: 00420", "h2h4", "420");
}

Test(engine, reads_totals_in_any_case_past_2_to_the_64) {
    assert_total("Nodes searched: 8902", "8902");
    assert_total("Total: 197281", "197281");
    assert_total("total nodes 4865609", "4865609");
    assert_total("NODES: 0", "0");
    assert_total("Nodes searched: 61885021521585529237", "61885021521585529237"); /* perft 14, past 2^64 */
    assert_total("Nodes searched: 340282366920938463463374607431768211455", "340282366920938463463374607431768211455");
    assert_total("Nodes searched: 0340282366920938463463374607431768211455", "340282366920938463463374607431768211455");
}

Test(engine, skips_blank_and_info_lines) {
    static const char *const lines[] = {"", "   ", "\r", "\t \r", "info string NNUE evaluation enabled", "info",
                                        "INFO depth 3"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        EngineOutput o = parse(lines[i]);
        cr_assert_eq(o.kind, ENGINE_OUTPUT_BLANK, "'%s'", lines[i]);
        cr_assert_str_eq(o.reason, "");
    }
    cr_assert_eq(parse("information: 3").kind, ENGINE_OUTPUT_BAD, "only the word info is skipped");
}

Test(engine, text_without_a_count_is_other_with_its_quotation) {
    assert_refused("Perft 3 took 5 ms", ENGINE_OUTPUT_OTHER,
                   "'Perft 3 took 5 ms', which is neither a move and its count nor a total");
    assert_refused("Nodes searched: lots", ENGINE_OUTPUT_OTHER,
                   "'Nodes searched: lots', which is neither a move and its count nor a total");
    assert_refused("e2e4: 20 (3 ms)", ENGINE_OUTPUT_OTHER,
                   "'e2e4: 20 (3 ms)', which is neither a move and its count nor a total");
    assert_refused(": 20", ENGINE_OUTPUT_OTHER, "': 20', which is neither a move and its count nor a total");
    assert_refused("e2e4: +20", ENGINE_OUTPUT_OTHER, "'e2e4: +20', which is neither a move and its count nor a total");
}

Test(engine, counts_that_cannot_be_right_are_bad_with_the_reason) {
    assert_refused("Nodes searched: -5", ENGINE_OUTPUT_BAD, "'Nodes searched: -5', a negative count");
    assert_refused("e2e4: -20", ENGINE_OUTPUT_BAD, "'e2e4: -20', a negative count");
    assert_refused("total -0", ENGINE_OUTPUT_BAD, "'total -0', a negative count");
    assert_refused("e2e4: 12345678901234567890123456789012345678901", ENGINE_OUTPUT_BAD,
                   "'e2e4: 12345678901234567890123456789012345678901', a count of 41 digits, more than 40");
    assert_refused("Nodes: 340282366920938463463374607431768211456", ENGINE_OUTPUT_BAD,
                   "'Nodes: 340282366920938463463374607431768211456', a count past 2^128 - 1");
    assert_refused("xyzzy: 20", ENGINE_OUTPUT_BAD, "'xyzzy: 20', which is not a UCI move and a count");
    assert_refused("e2e9: 20", ENGINE_OUTPUT_BAD, "'e2e9: 20', which is not a UCI move and a count");
    assert_refused("e7e8k: 1", ENGINE_OUTPUT_BAD, "'e7e8k: 1', which is not a UCI move and a count");
    assert_refused("depth 3", ENGINE_OUTPUT_BAD, "'depth 3', which is not a UCI move and a count");
}

Test(engine, outside_bytes_are_quoted_on_one_line_and_cut) {
    assert_refused("\x1b[2Jxyzzy\a: 20", ENGINE_OUTPUT_BAD, "'\\x1B[2Jxyzzy\\x07: 20', which is not a UCI move and a count");
    char line[300];
    memset(line, 'x', sizeof line - 1);
    line[sizeof line - 1] = '\0';
    EngineOutput o = parse(line);
    cr_assert_eq(o.kind, ENGINE_OUTPUT_OTHER);
    cr_assert(strstr(o.reason, "... (299 bytes)', which is neither"), "cut at 60 characters: %s", o.reason);
    cr_assert_lt(strlen(o.reason), 150);
    /* A NUL byte inside the line is a byte like any other. */
    static const char nul[] = "e2e4: 2\0" "0";
    cr_assert_eq(engine_parse_output(nul, sizeof nul - 1, &o), ENGINE_OUTPUT_OTHER);
    cr_assert_str_eq(o.reason, "'e2e4: 2\\x000', which is neither a move and its count nor a total");
    cr_assert_eq(engine_parse_output("e2e4: 20", 7, &o), ENGINE_OUTPUT_MOVE, "only `length` bytes are read");
    cr_assert(o.nodes == 2);
}
