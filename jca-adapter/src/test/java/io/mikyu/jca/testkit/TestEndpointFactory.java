package io.mikyu.jca.testkit;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionManager;

import javax.transaction.xa.XAResource;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A message-driven bean as a container runs it. Transacted (container-managed REQUIRED): {@code beforeDelivery}
 * begins a JTA transaction and enlists the adapter's XAResource, a bean that throws marks it rollback-only (and the
 * exception reaches the adapter, as an EJB system exception does), {@code afterDelivery} commits or rolls back.
 */
public final class TestEndpointFactory implements MessageEndpointFactory {

    /** The bean's onMessage. */
    @FunctionalInterface
    public interface Bean {
        void onMessage(Message message, TransactionManager tm) throws Exception;
    }

    /** What one delivery saw. */
    public record Delivery(String text, boolean redelivered, int deliveryCount, String thread, boolean inTransaction) {
    }

    private final boolean transacted;
    private final Bean bean;
    private final TransactionManager tm;
    public final List<Delivery> deliveries = new CopyOnWriteArrayList<>();

    public TestEndpointFactory(boolean transacted, Bean bean) {
        this.transacted = transacted;
        this.bean = bean;
        this.tm = Jta.tm();
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xaResource) throws UnavailableException {
        if (transacted && xaResource == null) {
            throw new UnavailableException("a transacted endpoint needs the adapter's XAResource");
        }
        return new Endpoint(xaResource);
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xaResource, long timeout) throws UnavailableException {
        return createEndpoint(xaResource);
    }

    @Override
    public boolean isDeliveryTransacted(Method method) {
        return transacted;
    }

    @Override
    public String getActivationName() {
        return "test-mdb";
    }

    @Override
    public Class<?> getEndpointClass() {
        return Endpoint.class;
    }

    public List<String> texts() {
        return deliveries.stream().map(Delivery::text).toList();
    }

    final class Endpoint implements MessageEndpoint, MessageListener {

        private final XAResource xaResource;
        private boolean inDelivery;

        Endpoint(XAResource xaResource) {
            this.xaResource = xaResource;
        }

        @Override
        public void beforeDelivery(Method method) throws ResourceException {
            if (inDelivery) {
                throw new jakarta.resource.spi.IllegalStateException("beforeDelivery twice");
            }
            inDelivery = true;
            if (transacted) {
                try {
                    tm.begin();
                    tm.getTransaction().enlistResource(xaResource);
                } catch (Exception e) {
                    throw new ResourceException("cannot begin the delivery's transaction", e);
                }
            }
        }

        @Override
        public void onMessage(Message message) {
            try {
                deliveries.add(new Delivery(message instanceof TextMessage t ? t.getText() : null,
                        message.getJMSRedelivered(), message.getIntProperty("JMSXDeliveryCount"),
                        Thread.currentThread().getName(), transacted && tm.getStatus() == Status.STATUS_ACTIVE));
                bean.onMessage(message, tm);
            } catch (RuntimeException e) {
                rollbackOnly();
                throw e;
            } catch (Exception e) {
                rollbackOnly();
                throw new RuntimeException("the bean failed", e); // an EJB system exception
            }
        }

        private void rollbackOnly() {
            if (transacted) {
                try {
                    tm.setRollbackOnly();
                } catch (Exception ignored) {
                    // no transaction
                }
            }
        }

        @Override
        public void afterDelivery() throws ResourceException {
            if (!inDelivery) {
                throw new jakarta.resource.spi.IllegalStateException("afterDelivery without beforeDelivery");
            }
            inDelivery = false;
            if (transacted) {
                try {
                    if (tm.getStatus() == Status.STATUS_MARKED_ROLLBACK) {
                        tm.rollback();
                    } else {
                        tm.commit();
                    }
                } catch (Exception e) {
                    throw new ResourceException("the delivery's transaction failed", e);
                }
            }
        }

        @Override
        public void release() {
        }
    }

    /** The text of a message, for beans. */
    public static String text(Message m) throws JMSException {
        return ((TextMessage) m).getText();
    }
}
