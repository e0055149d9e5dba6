package io.mikyu.jms.classic;

import java.nio.file.Path;

/**
 * The store a backend-neutral test of the provider runs on: by default an embedded engine in the test's own
 * directory. Another backend's module runs the same tests unchanged by subclassing them with an interface that
 * extends this one and overrides its defaults (the kafka module's {@code OnKafka}); its exclusions list names the
 * tests that backend cannot pass, each with its reason.
 */
interface TestStore {

    /** The test's own directory (its {@code @TempDir}). */
    Path data();

    /** The URL of this test's store, with more options ({@code "&name=value..."}). */
    default String url(String options) {
        return "vm://" + data() + "?durability=async" + options;
    }

    /** How long a receive waits for a message that is there (a backend whose consumers join a group first needs longer). */
    default long waitMillis() {
        return 5_000;
    }

    /** A second store of this test, with the given options ({@code "name=value&..."}). */
    default String otherStoreUrl(String options) {
        return "vm://" + data().resolve("other") + "?" + options;
    }
}
