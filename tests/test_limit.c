/* The join code's limiter and the seats per address (limit.h), on a clock
 * the tests hand in: the right code always joins, wrong ones are slowed per
 * address and for the class, a full table keeps the worst offenders. */
#include <stdio.h>
#include <stdlib.h>

#include "app/class/limit.h"
#include "suites.h"

static PlClassLimit *lim;

static void setup(void) {
    lim = calloc(1, sizeof *lim);
    ck_assert_ptr_nonnull(lim);
}
static void teardown(void) { free(lim); }

/* n wrong codes from addr at now_ms; returns how many were answered LIMITED. */
static int wrongs(const char *addr, int n, int64_t now_ms) {
    int limited = 0;
    for (int i = 0; i < n; i++) limited += pl_limit_code(lim, addr, 0, now_ms) == PL_CLASS_CODE_LIMITED;
    return limited;
}

START_TEST(test_the_right_code_joins_however_many_wrong_ones_came_before) {
    ck_assert_int_eq(wrongs("10.0.0.9", 5, 1000), 0);
    ck_assert_int_eq(wrongs("10.0.0.9", 15, 1000), 15);
    ck_assert_int_eq(pl_limit_code(lim, "10.0.0.9", 1, 1000), PL_CLASS_CODE_OK);
    /* a right code counts nothing */
    ck_assert_int_eq(pl_limit_wrong(lim, "10.0.0.9", 1000), 20);
    ck_assert_int_eq(pl_limit_code(lim, "10.0.0.8", 0, 1000), PL_CLASS_CODE_WRONG); /* another address */
}
END_TEST

START_TEST(test_an_address_past_five_wrong_codes_waits_its_turn_four_times_a_second) {
    ck_assert_int_eq(pl_limit_turn(lim, "10.0.0.9", 1000), 0);
    wrongs("10.0.0.9", 5, 1000);
    ck_assert_int_eq(pl_limit_metered(lim, "10.0.0.9", 1000), PL_LIMIT_ADDRESS);
    ck_assert_int_eq(pl_limit_metered(lim, "10.0.0.8", 1000), 0);
    ck_assert_int_eq(pl_limit_turn(lim, "10.0.0.9", 1000), 0);    /* its first turn is now */
    ck_assert_int_eq(pl_limit_turn(lim, "10.0.0.9", 1000), 1250); /* the next one 250 ms on */
    ck_assert_int_eq(pl_limit_turn(lim, "10.0.0.9", 1249), 1250);
    ck_assert_int_eq(pl_limit_turn(lim, "10.0.0.8", 1001), 0); /* another address is not held */
    ck_assert_int_eq(pl_limit_turn(lim, "10.0.0.9", 1250), 0);
    /* the window ends a minute after its first wrong try: the address is free again */
    ck_assert_int_eq(pl_limit_turn(lim, "10.0.0.9", 1000 + PL_CLASS_CODE_WINDOW_MS - 1), 0);
    ck_assert_int_eq(pl_limit_metered(lim, "10.0.0.9", 1000 + PL_CLASS_CODE_WINDOW_MS - 1), PL_LIMIT_ADDRESS);
    ck_assert_int_eq(pl_limit_metered(lim, "10.0.0.9", 1000 + PL_CLASS_CODE_WINDOW_MS), 0);
    ck_assert_int_eq(pl_limit_code(lim, "10.0.0.9", 0, 1000 + PL_CLASS_CODE_WINDOW_MS), PL_CLASS_CODE_WRONG);
    ck_assert_int_eq(pl_limit_wrong(lim, "10.0.0.9", 1000 + PL_CLASS_CODE_WINDOW_MS), 1);
}
END_TEST

START_TEST(test_the_class_past_300_wrong_codes_meters_every_address_to_its_windows_end) {
    char addr[32];
    for (int i = 0; i < PL_LIMIT_CLASS_WRONG; i++) { /* one each: never an address's limit */
        snprintf(addr, sizeof addr, "10.1.%d.%d", i / 200, i % 200);
        ck_assert_int_eq(pl_limit_code(lim, addr, 0, 5000 + i), PL_CLASS_CODE_WRONG);
    }
    ck_assert_int_eq(pl_limit_metered(lim, "192.168.1.7", 6000), PL_LIMIT_CLASS);
    ck_assert_int_eq(pl_limit_code(lim, "192.168.1.7", 0, 6000), PL_CLASS_CODE_LIMITED);
    ck_assert_int_eq(pl_limit_code(lim, "192.168.1.8", 1, 6000), PL_CLASS_CODE_OK);
    /* ten checks a second, whoever asks */
    ck_assert_int_eq(pl_limit_turn(lim, "192.168.1.8", 6000), 0);
    ck_assert_int_eq(pl_limit_turn(lim, "192.168.1.9", 6000), 6100);
    ck_assert_int_eq(pl_limit_turn(lim, "192.168.1.9", 6100), 0);
    /* its window began with its first wrong code, at 5000 */
    ck_assert_int_eq(pl_limit_metered(lim, "192.168.1.9", 5000 + PL_CLASS_CODE_WINDOW_MS - 1), PL_LIMIT_CLASS);
    ck_assert_int_eq(pl_limit_metered(lim, "192.168.1.9", 5000 + PL_CLASS_CODE_WINDOW_MS), 0);
    ck_assert_int_eq(pl_limit_code(lim, "192.168.1.9", 0, 5000 + PL_CLASS_CODE_WINDOW_MS), PL_CLASS_CODE_WRONG);
}
END_TEST

START_TEST(test_a_full_table_evicts_the_fewest_wrong_tries_never_the_worst) {
    char addr[32];
    wrongs("10.0.0.9", 20, 1000);                 /* the worst */
    wrongs("10.0.0.7", 2, 1001);                  /* two each */
    for (int i = 0; i < PL_LIMIT_ROWS - 2; i++) { /* the table full: 254 of one each */
        snprintf(addr, sizeof addr, "10.2.%d.%d", i / 200, i % 200);
        wrongs(addr, 1, 1002 + i);
    }
    for (int i = 0; i < 3 * PL_LIMIT_ROWS; i++) { /* 768 more addresses, one wrong code each */
        snprintf(addr, sizeof addr, "10.3.%d.%d", i / 200, i % 200);
        wrongs(addr, 1, 2000 + i);
    }
    ck_assert_int_eq(pl_limit_wrong(lim, "10.0.0.9", 3000), 20);
    ck_assert_int_eq(pl_limit_wrong(lim, "10.0.0.7", 3000), 2);
    ck_assert_int_eq(pl_limit_wrong(lim, "10.2.0.0", 3000), 0);   /* one each, the stalest: gone */
    ck_assert_int_eq(pl_limit_wrong(lim, "10.3.3.167", 3000), 1); /* the last one came */
    ck_assert_int_eq(pl_limit_metered(lim, "10.0.0.9", 3000) & PL_LIMIT_ADDRESS, PL_LIMIT_ADDRESS);
}
END_TEST

START_TEST(test_an_expired_row_is_evicted_before_a_live_one) {
    char addr[32];
    wrongs("10.0.0.9", 20, 1000); /* its window ends at 61000 */
    for (int i = 0; i < PL_LIMIT_ROWS - 1; i++) {
        snprintf(addr, sizeof addr, "10.2.%d.%d", i / 200, i % 200);
        wrongs(addr, 1, 30000);
    }
    wrongs("10.4.0.1", 1, 61000);
    ck_assert_int_eq(pl_limit_wrong(lim, "10.0.0.9", 61000), 0);
    ck_assert_int_eq(pl_limit_wrong(lim, "10.2.0.0", 61000), 1);
    ck_assert_int_eq(pl_limit_wrong(lim, "10.4.0.1", 61000), 1);
}
END_TEST

START_TEST(test_an_ipv6_host_hopping_inside_its_64_is_one_address) {
    char addr[64];
    for (int i = 0; i < 6; i++) {
        snprintf(addr, sizeof addr, "2001:db8:1:2:%x::%x", i + 1, i * 7 + 1);
        ck_assert_int_eq(pl_limit_code(lim, addr, 0, 1000), i < 5 ? PL_CLASS_CODE_WRONG : PL_CLASS_CODE_LIMITED);
    }
    ck_assert_int_eq(pl_limit_wrong(lim, "2001:db8:1:2::1", 1000), 6);
    ck_assert_int_eq(pl_limit_wrong(lim, "2001:db8:1:3::1", 1000), 0); /* the next /64 */
    /* an IPv4 client of a dual-stack server is its IPv4 address */
    ck_assert_int_eq(pl_limit_code(lim, "::ffff:10.0.0.9", 0, 1000), PL_CLASS_CODE_WRONG);
    ck_assert_int_eq(pl_limit_wrong(lim, "10.0.0.9", 1000), 1);
    ck_assert_int_eq(pl_limit_wrong(lim, "10.0.0.10", 1000), 0);
}
END_TEST

START_TEST(test_an_address_seats_as_many_as_its_cap_and_no_more) {
    lim->seat_cap = 3;
    for (int i = 0; i < 3; i++) ck_assert_int_eq(pl_limit_seat_take(lim, "10.0.0.9"), 0);
    ck_assert_int_eq(pl_limit_seat_take(lim, "10.0.0.9"), -1);
    ck_assert_int_eq(pl_limit_seats(lim, "10.0.0.9"), 3);
    ck_assert_int_eq(pl_limit_seat_take(lim, "10.0.0.8"), 0); /* another address */
    pl_limit_seat_give(lim, "10.0.0.9");                      /* a join the full class refused */
    ck_assert_int_eq(pl_limit_seat_take(lim, "10.0.0.9"), 0);
    /* IPv6 addresses are seated one by one: a class on one /64 is many students */
    lim->seat_cap = 1;
    ck_assert_int_eq(pl_limit_seat_take(lim, "2001:db8::1"), 0);
    ck_assert_int_eq(pl_limit_seat_take(lim, "2001:db8::2"), 0);
    ck_assert_int_eq(pl_limit_seat_take(lim, "2001:db8::2"), -1);
    lim->seat_cap = 0; /* no cap */
    for (int i = 0; i < PL_CLASS_MAX_STUDENTS; i++) ck_assert_int_eq(pl_limit_seat_take(lim, "10.0.0.7"), 0);
    ck_assert_int_eq(pl_limit_seats(lim, "10.0.0.7"), PL_CLASS_MAX_STUDENTS);
}
END_TEST

START_TEST(test_a_class_counts_its_codes_and_seats_under_its_lock) {
    PlClass *c = pl_class_new("K7P2Q");
    ck_assert_ptr_nonnull(c);
    for (int i = 0; i < PL_CLASS_CODE_TRIES; i++)
        ck_assert_int_eq(pl_class_code_try(c, "10.0.0.9", "AAAAA", 1000 + i), PL_CLASS_CODE_WRONG);
    ck_assert_int_eq(pl_class_code_try(c, "10.0.0.9", "AAAAA", 2000), PL_CLASS_CODE_LIMITED);
    ck_assert_int_eq(pl_class_code_try(c, "10.0.0.9", "K7P2Q", 2000), PL_CLASS_CODE_OK);
    ck_assert_int_eq(pl_class_code_metered(c, "10.0.0.9", 2000), PL_LIMIT_ADDRESS);
    ck_assert_int_eq(pl_class_code_wrong(c, "10.0.0.9", 2000), 6);
    ck_assert_int_eq(pl_class_code_turn(c, "10.0.0.9", 2000), 0);
    ck_assert_int_eq(pl_class_code_turn(c, "10.0.0.9", 2000), 2000 + PL_LIMIT_ADDRESS_GAP_MS);
    ck_assert_int_eq(pl_class_seat_take(c, "10.0.0.9"), 0); /* a class has no cap of its own */
    pl_class_seats_per_address(c, 1);
    ck_assert_int_eq(pl_class_seat_take(c, "10.0.0.9"), -1);
    pl_class_seat_give(c, "10.0.0.9");
    ck_assert_int_eq(pl_class_seat_take(c, "10.0.0.9"), 0);
    pl_class_free(c);
}
END_TEST

Suite *limit_suite(void) {
    Suite *s = suite_create("limit");
    TCase *codes = tcase_create("codes");
    tcase_add_checked_fixture(codes, setup, teardown);
    tcase_add_test(codes, test_the_right_code_joins_however_many_wrong_ones_came_before);
    tcase_add_test(codes, test_an_address_past_five_wrong_codes_waits_its_turn_four_times_a_second);
    tcase_add_test(codes, test_the_class_past_300_wrong_codes_meters_every_address_to_its_windows_end);
    tcase_add_test(codes, test_an_ipv6_host_hopping_inside_its_64_is_one_address);
    suite_add_tcase(s, codes);
    TCase *table = tcase_create("table");
    tcase_add_checked_fixture(table, setup, teardown);
    tcase_add_test(table, test_a_full_table_evicts_the_fewest_wrong_tries_never_the_worst);
    tcase_add_test(table, test_an_expired_row_is_evicted_before_a_live_one);
    suite_add_tcase(s, table);
    TCase *seats = tcase_create("seats");
    tcase_add_checked_fixture(seats, setup, teardown);
    tcase_add_test(seats, test_an_address_seats_as_many_as_its_cap_and_no_more);
    tcase_add_test(seats, test_a_class_counts_its_codes_and_seats_under_its_lock);
    suite_add_tcase(s, seats);
    return s;
}
