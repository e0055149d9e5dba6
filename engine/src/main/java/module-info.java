/**
 * The mikyu engine: the embedded store of log and task queues.
 *
 * <p>Its API is {@code io.mikyu.engine} (with {@code .config}, {@code .security} and {@code .spi}); everything under
 * {@code io.mikyu.engine.internal} is the implementation and is not exported.
 */
module io.mikyu.engine {
    requires transitive micrometer.core;
    requires transitive java.transaction.xa;
    requires java.management;
    requires org.slf4j;
    requires org.jctools.core;
    // JCTools' queues use sun.misc.Unsafe, and its own module requires jdk.unsupported only statically.
    requires jdk.unsupported;

    exports io.mikyu.engine;
    exports io.mikyu.engine.config;
    exports io.mikyu.engine.security;
    exports io.mikyu.engine.spi;

    uses io.mikyu.engine.Dialer;
    uses io.mikyu.engine.StoreOpener;
    // Configuration keys of other modules (the broker's), so that a shared config file is checked whole.
    uses io.mikyu.engine.config.ConfigSection;

    provides io.mikyu.engine.StoreOpener with io.mikyu.engine.internal.store.LocalStoreOpener;
    provides io.mikyu.engine.spi.FilterCompiler with io.mikyu.engine.internal.task.HeaderEqualsCompiler;
}
