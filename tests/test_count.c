/* test_count.c — 128-bit counts in decimal, both ways. */
#include "support.h"

#include "../perft/count.h"

Test(count, prints_counts_beyond_64_bits_in_full) {
    char text[COUNT_TEXT_SIZE];
    Count perft14 = (Count)6188502152158552923ULL * 10 + 7; /* 61,885,021,521,585,529,237 */
    cr_assert_str_eq(count_format(perft14, false, text), "61885021521585529237");
    cr_assert_str_eq(count_format(perft14, true, text), "61,885,021,521,585,529,237");
    cr_assert_str_eq(count_format(0, true, text), "0");
    cr_assert_str_eq(count_format(999, true, text), "999");
    cr_assert_str_eq(count_format(1000, true, text), "1,000");
    cr_assert_str_eq(count_format(~(Count)0, false, text), "340282366920938463463374607431768211455");
}

Test(count, parses_what_it_prints_and_refuses_overflow) {
    Count n;
    const char *perft15 = "2015099950053364471960";
    cr_assert(count_parse(perft15, strlen(perft15), &n));
    char text[COUNT_TEXT_SIZE];
    cr_assert_str_eq(count_format(n, false, text), perft15);
    const char *max = "340282366920938463463374607431768211455";
    cr_assert(count_parse(max, strlen(max), &n));
    cr_assert(n == ~(Count)0);
    cr_assert_not(count_parse("340282366920938463463374607431768211456", 39, &n));
    cr_assert_not(count_parse("12a", 3, &n));
    cr_assert_not(count_parse("", 0, &n));
    cr_assert_not(count_parse("-1", 2, &n));
}

Test(count, words_read_as_the_cil_toolkit_prints_them) {
    char words[COUNT_WORDS_SIZE];
    cr_assert_str_eq(count_words(3195901860u, words),
                     "three billion, one hundred and ninety-five million, nine hundred and one thousand, "
                     "eight hundred and sixty");
    cr_assert_str_eq(count_words(0, words), "zero");
    cr_assert_str_eq(count_words(20, words), "twenty");
    cr_assert_str_eq(count_words(8902, words), "eight thousand, nine hundred and two");
    cr_assert_str_eq(count_words(1005, words), "one thousand and five");
    cr_assert_str_eq(count_words(119060324, words),
                     "one hundred and nineteen million, sixty thousand, three hundred and twenty-four");
    Count perft15;
    cr_assert(count_parse("2015099950053364471960", 22, &perft15));
    cr_assert_str_eq(count_words(perft15, words),
                     "two sextillion, fifteen quintillion, ninety-nine quadrillion, nine hundred and fifty trillion, "
                     "fifty-three billion, three hundred and sixty-four million, four hundred and seventy-one "
                     "thousand, nine hundred and sixty");
    count_words(~(Count)0, words); /* the largest count must fit the buffer */
    cr_assert(strstr(words, "three hundred and forty undecillion"), "%s", words);
}
