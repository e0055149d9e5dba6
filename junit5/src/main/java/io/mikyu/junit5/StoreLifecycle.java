package io.mikyu.junit5;

/** How long one temporary store lives. */
public enum StoreLifecycle {

    /**
     * One store for the test class (its {@code @Nested} classes included), opened before its first
     * {@code @BeforeAll} method and closed and deleted after its last {@code @AfterAll} method. Tests see what earlier
     * tests left in the queues. The default.
     */
    PER_CLASS,

    /** A fresh store for every test, opened before its {@code @BeforeEach} methods and deleted after its {@code @AfterEach}. */
    PER_TEST
}
