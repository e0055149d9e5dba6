package io.mikyu.it.xa;

import io.mikyu.it.Names;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.MessageDrivenContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Consumes a message and inserts a row for it in one container-managed transaction (the bean's default,
 * {@code REQUIRED}: the delivery's XA branch and the database's). A body that starts with {@code rollback-only:}
 * marks the first delivery's transaction rollback-only after the insert; one that starts with
 * {@code insert-fails:} makes a second insert of the first delivery fail (a null body). Later deliveries succeed.
 */
@MessageDriven(name = "InboxMdb", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = Names.XA_INBOX),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")})
public class InboxMdb implements MessageListener {

    @Resource(lookup = Names.XA_DATASOURCE)
    private DataSource dataSource;

    @Resource
    private MessageDrivenContext context;

    @EJB
    private Attempts attempts;

    @Override
    public void onMessage(Message message) {
        try {
            String body = message.getBody(String.class);
            int deliveryCount = message.getIntProperty("JMSXDeliveryCount");
            attempts.record(body, message.getJMSRedelivered(), deliveryCount);
            boolean first = deliveryCount == 1;
            try (Connection db = dataSource.getConnection()) {
                OrderRows.insert(db, body);
                if (first && body.startsWith("insert-fails:")) {
                    OrderRows.insert(db, null);
                }
            }
            if (first && body.startsWith("rollback-only:")) {
                context.setRollbackOnly();
            }
        } catch (JMSException | SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
