package io.mikyu.junit5;

/**
 * The broker serving the test's store (the broker option), injectable as a parameter or {@link InjectMikyu} field.
 *
 * @param address the broker's address, {@code tcp://127.0.0.1:<port>}: for {@code Mikyu.dial(address)} and the
 *                command line's {@code --target}
 * @param jmsUrl  the JMS connection URL, the address with the test's options (what {@link BrokerUrl} injects)
 */
public record MikyuBroker(String address, String jmsUrl) {

    /**
     * The port the broker listens on.
     *
     * @return the port, on the loopback interface
     */
    public int port() {
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }
}
