package io.mikyu.jms.large;

import io.mikyu.engine.support.ChildProcess;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.Session;

import java.util.HexFormat;

/**
 * Child JVM with a small heap: {@code send <url> <bytes>} streams one message of that many bytes into queue
 * {@code huge} and prints {@code sent}; {@code receive <url>} saves the message's body into a digest and prints
 * {@code received <bytes> <sha-256>}. Both print {@code heap <max used MiB>}.
 */
public final class LargeStreamChild {

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        try (Connection c = new MikyuConnectionFactory(args[1]).createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            if (mode.equals("send")) {
                BytesMessage m = s.createBytesMessage();
                m.setObjectProperty("JMS_MIKYU_InputStream", new PatternStream(Long.parseLong(args[2]), 9));
                s.createProducer(s.createQueue("huge")).send(m);
                ChildProcess.println("sent");
            } else {
                BytesMessage m = (BytesMessage) s.createConsumer(s.createQueue("huge")).receive(600_000);
                PatternStream.Digest out = new PatternStream.Digest();
                m.setObjectProperty("JMS_MIKYU_SaveStream", out);
                ChildProcess.println("received " + out.count + " " + HexFormat.of().formatHex(out.digest()));
            }
        }
        ChildProcess.println("heap " + (Runtime.getRuntime().totalMemory() >> 20));
    }
}
