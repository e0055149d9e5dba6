package io.mikyu.broker.xa;

/** How the application reaches mikyu: an engine embedded in its JVM, or a daemon over TCP. */
enum Transport {
    /** {@code vm://<dir>}: the engine lives (and dies) with the application's JVM. */
    VM,
    /** {@code tcp://127.0.0.1:<port>}: a {@code mikyu daemon} in a process of its own. */
    TCP
}
