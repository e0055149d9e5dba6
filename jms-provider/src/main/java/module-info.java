/**
 * The Jakarta Messaging 3.1 provider: connection factories and destinations ({@code io.mikyu.jms}) and the JNDI
 * context ({@code io.mikyu.jms.jndi}); the rest is the implementation.
 */
module io.mikyu.jms {
    requires transitive io.mikyu.engine;
    requires transitive jakarta.messaging;
    requires io.mikyu.selector;
    requires java.naming;
    requires micrometer.core;
    requires org.slf4j;

    exports io.mikyu.jms;
    exports io.mikyu.jms.jndi;
    // The provider's URL options: the resource adapter and the JUnit 5 extension read the same URLs.
    exports io.mikyu.jms.config to io.mikyu.jca, io.mikyu.junit5;
    // The simplified API's conditional receive, and the availability hooks: for the resource adapter's pool.
    exports io.mikyu.jms.context to io.mikyu.jca;
    exports io.mikyu.jms.spi to io.mikyu.jca;
    // Engines shared per directory: the JUnit 5 extension opens the same engine as its vm:// connections.
    exports io.mikyu.jms.embedded to io.mikyu.junit5;

    uses io.mikyu.jms.ConnectionOpener;

    provides io.mikyu.jms.ConnectionOpener with io.mikyu.jms.classic.MikyuConnectionOpener;
}
