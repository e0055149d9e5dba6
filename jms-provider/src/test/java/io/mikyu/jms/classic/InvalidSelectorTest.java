package io.mikyu.jms.classic;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.InvalidSelectorRuntimeException;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every way to give a selector refuses an invalid one with the exception Jakarta Messaging names for it, carrying
 * the reason and the position.
 */
@Timeout(60)
class InvalidSelectorTest implements TestStore {

    private static final String BAD = "colour = 'red";
    private static final String REASON = "Invalid message selector: unterminated string literal at position 9 in \""
            + BAD + "\"";

    @TempDir
    Path data;

    @Override
    public Path data() {
        return data;
    }

    @Test
    void sessionsRefuseAnInvalidSelectorWithInvalidSelectorException() throws Exception {
        MikyuConnectionFactory factory = new MikyuConnectionFactory(url(""));
        try (Connection c = factory.createConnection()) {
            c.setClientID("selectors");
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("orders");
            Topic t = s.createTopic("prices");
            assertThatThrownBy(() -> s.createConsumer(q, BAD))
                    .isInstanceOf(InvalidSelectorException.class).hasMessage(REASON);
            assertThatThrownBy(() -> s.createConsumer(t, BAD, true))
                    .isInstanceOf(InvalidSelectorException.class).hasMessage(REASON);
            assertThatThrownBy(() -> s.createBrowser(q, BAD))
                    .isInstanceOf(InvalidSelectorException.class).hasMessage(REASON);
            assertThatThrownBy(() -> s.createDurableSubscriber(t, "d", BAD, false))
                    .isInstanceOf(InvalidSelectorException.class).hasMessage(REASON);
            assertThatThrownBy(() -> s.createSharedConsumer(t, "s", BAD))
                    .isInstanceOf(InvalidSelectorException.class).hasMessage(REASON);
            assertThatThrownBy(() -> s.createSharedDurableConsumer(t, "sd", BAD))
                    .isInstanceOf(InvalidSelectorException.class).hasMessage(REASON);
        }
    }

    @Test
    void contextsRefuseAnInvalidSelectorWithInvalidSelectorRuntimeException() {
        MikyuConnectionFactory factory = new MikyuConnectionFactory(url(""));
        try (JMSContext context = factory.createContext()) {
            Queue q = context.createQueue("orders");
            assertThatThrownBy(() -> context.createConsumer(q, BAD))
                    .isInstanceOf(InvalidSelectorRuntimeException.class).hasMessage(REASON);
            assertThatThrownBy(() -> context.createBrowser(q, BAD))
                    .isInstanceOf(InvalidSelectorRuntimeException.class).hasMessage(REASON);
        }
    }
}
