package io.mikyu.jms.classic;

import io.mikyu.engine.support.ChildProcess;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

/** Child JVM: sends PERSISTENT messages forever, printing {@code sent <n>} after each send returns. */
public final class PersistentSender {

    public static void main(String[] args) throws Exception {
        String url = args[0];
        try (Connection c = new MikyuConnectionFactory(url).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer q = s.createProducer(s.createQueue("crash-queue"));
            MessageProducer t = s.createProducer(s.createTopic("crash-topic"));
            q.setDeliveryMode(DeliveryMode.PERSISTENT);
            t.setDeliveryMode(DeliveryMode.PERSISTENT);
            ChildProcess.println("ready");
            for (int i = 0; ; i++) {
                TextMessage m = s.createTextMessage("m" + i);
                m.setIntProperty("seq", i);
                q.send(m);
                t.send(m);
                ChildProcess.println("sent " + i);
            }
        }
    }
}
