package io.mikyu.broker.xa;

/** How the application reaches mikyu: an engine embedded in its JVM, or a daemon over TCP. */
enum Transport {
    /** {@code vm://<dir>}: the engine lives (and dies) with the application's JVM. */
    VM,
    /** As {@link #VM}, with the option {@code prepareAhead}: branches' PREPARE records are written at their end. */
    VM_AHEAD,
    /** {@code tcp://127.0.0.1:<port>}: a {@code mikyu daemon} in a process of its own. */
    TCP;

    /** Whether the engine lives in the application's JVM. */
    boolean embedded() {
        return this != TCP;
    }
}
