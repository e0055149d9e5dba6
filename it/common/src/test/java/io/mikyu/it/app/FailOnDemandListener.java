package io.mikyu.it.app;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDrivenContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * A message-driven bean's work in the redelivery and subscription scenarios: record every delivery, then fail the
 * way the message's {@value #FAIL} property asks, so the test decides per message what the bean does:
 * {@value #THROW} (a RuntimeException: the container rolls a transacted delivery back, and the adapter redelivers
 * either kind), {@value #ROLLBACK_ONLY} ({@code setRollbackOnly} on a container-managed transaction, then a normal
 * return), or nothing (the delivery succeeds). Each server's module declares the beans, since how a destination is
 * named to the adapter is the server's.
 */
public abstract class FailOnDemandListener implements MessageListener {

    public static final String FAIL = "itFail";
    public static final String THROW = "throw";
    public static final String ROLLBACK_ONLY = "rollbackOnly";

    @EJB
    private Deliveries deliveries;

    @Resource
    private MessageDrivenContext context;

    @Override
    public void onMessage(Message message) {
        String fail;
        try {
            deliveries.record(message);
            fail = message.getStringProperty(FAIL);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
        if (THROW.equals(fail)) {
            throw new IllegalStateException("the bean fails, as the message asks");
        }
        if (ROLLBACK_ONLY.equals(fail)) {
            context.setRollbackOnly();
        }
    }
}
