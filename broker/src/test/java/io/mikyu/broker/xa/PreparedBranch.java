package io.mikyu.broker.xa;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;

import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * One XA branch on mikyu driven by hand up to prepare, as a transaction manager would: outside it,
 * {@code bystander-<cycle>} is sent to {@value #OUT} and {@code in-<cycle>} to {@value #IN}; in it,
 * {@code in-<cycle>} is consumed and {@code out-<cycle>} is sent to {@value #OUT} and to
 * {@code only-<cycle>}, a queue that holds nothing else (created by that send).
 */
final class PreparedBranch {

    static final String IN = "prepared.in";
    static final String OUT = "prepared.out";

    private PreparedBranch() {
    }

    static String onlyQueue(int cycle) {
        return "only-" + cycle;
    }

    /** Runs the branch up to its prepare; returns the vote. The connections stay open. */
    static int run(Connection plain, XAConnection xc, Xid xid, int cycle) throws Exception {
        Jms.send(plain, OUT, "bystander-" + cycle);
        Jms.send(plain, IN, "in-" + cycle);
        xc.start();
        XASession session = xc.createXASession();
        XAResource resource = session.getXAResource();
        resource.start(xid, XAResource.TMNOFLAGS);
        Session s = session.getSession();
        MessageConsumer consumer = s.createConsumer(s.createQueue(IN));
        Message in = consumer.receive(10_000);
        if (in == null || !("in-" + cycle).equals(((TextMessage) in).getText())) {
            throw new AssertionError("received " + in + " from " + IN + ", not in-" + cycle);
        }
        for (String queue : new String[] {OUT, onlyQueue(cycle)}) {
            MessageProducer p = s.createProducer(s.createQueue(queue));
            p.send(s.createTextMessage("out-" + cycle), DeliveryMode.PERSISTENT, Message.DEFAULT_PRIORITY,
                    Message.DEFAULT_TIME_TO_LIVE);
        }
        resource.end(xid, XAResource.TMSUCCESS);
        return resource.prepare(xid);
    }
}
