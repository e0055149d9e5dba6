package io.mikyu.spring.boot.health;

import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.spring.boot.autoconfigure.MikyuUrl;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import java.time.Duration;
import java.util.Map;

/**
 * Health of a {@code mikyu daemon}: UP when a connection of its own reaches it and is let in, now. The probe does
 * not reconnect and gives up after {@link #TIMEOUT}, so a daemon that is down shows at once, while the
 * application's own connections may still be reconnecting.
 */
public class MikyuBrokerHealthIndicator extends AbstractHealthIndicator {

    /** How long the probe may take to connect and be answered. */
    public static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final MikyuUrl url;
    private final ConnectionFactory probe;
    private final String user;
    private final String password;

    public MikyuBrokerHealthIndicator(MikyuUrl url, String user, String password) {
        super("mikyu daemon health check failed");
        this.url = url;
        String millis = String.valueOf(TIMEOUT.toMillis());
        this.probe = new MikyuConnectionFactory(url.with(Map.of("reconnect", "0", "connectTimeout", millis,
                "requestTimeout", millis)).value());
        this.user = user;
        this.password = password;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws Exception {
        builder.withDetail("mode", "daemon").withDetail("broker", url.parsed().brokerUri());
        try (Connection connection = user == null ? probe.createConnection()
                : probe.createConnection(user, password)) {
            builder.up().withDetail("provider", connection.getMetaData().getJMSProviderName() + " "
                    + connection.getMetaData().getProviderVersion());
        }
    }
}
