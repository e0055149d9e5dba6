package io.mikyu.it.xa;

import io.mikyu.it.Names;
import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Places an order in one container-managed JTA transaction: a row through the XA datasource and a message through
 * mikyu's pooled connection factory, both enlisted by the server; then ends as the caller's {@link Outcome} says.
 */
@Stateless
public class OrderService {

    @Resource(lookup = Names.XA_DATASOURCE)
    private DataSource dataSource;

    @Resource(lookup = Names.CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    @Resource(lookup = Names.XA_ORDERS)
    private Queue orders;

    @Resource
    private SessionContext context;

    public void place(String body, Outcome outcome) throws SQLException {
        try (Connection db = dataSource.getConnection()) {
            OrderRows.insert(db, body);
        }
        try (JMSContext jms = connectionFactory.createContext()) {
            jms.createProducer().send(orders, body);
        }
        switch (outcome) {
            case COMMIT -> { }
            case ROLLBACK_ONLY -> context.setRollbackOnly();
            case FAIL_AFTER_BOTH -> throw new IllegalStateException("order " + body + " fails after its row and message");
        }
    }
}
