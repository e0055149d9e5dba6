/**
 * The network client of the broker protocol: what {@code Mikyu.dial} returns for {@code tcp://}, {@code tls://} and
 * {@code unix://} URLs.
 */
module io.mikyu.client {
    requires transitive io.mikyu.engine;
    requires io.netty.buffer;
    requires io.netty.codec;
    requires io.netty.common;
    requires io.netty.handler;
    requires io.netty.transport;
    requires io.netty.transport.classes.epoll;
    requires io.netty.transport.unix.common;
    requires org.slf4j;

    exports io.mikyu.client;
    // The wire protocol: the broker reads and writes the same frames.
    exports io.mikyu.protocol to io.mikyu.broker;
    // Endpoints and transports: the broker listens on the same endpoints; the JUnit 5 extension names one.
    exports io.mikyu.transport to io.mikyu.broker, io.mikyu.junit5;

    provides io.mikyu.engine.Dialer with io.mikyu.client.RemoteDialer;
}
