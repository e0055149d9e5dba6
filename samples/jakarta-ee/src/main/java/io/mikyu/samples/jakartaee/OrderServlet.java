package io.mikyu.samples.jakartaee;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.transaction.UserTransaction;
import java.io.IOException;

/**
 * {@code POST /orders?item=ITEM}: sends ITEM to the orders queue through the server's pooled connection factory,
 * inside a JTA transaction: the message is on the queue once the transaction commits, and never if it rolls back.
 * {@code GET /orders}: what {@link OrderListener} has received, one a line.
 */
@WebServlet("/orders")
public class OrderServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Resource(lookup = Orders.CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    @Resource
    private UserTransaction transaction;

    @EJB
    private ReceivedOrders received;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String item = request.getParameter("item");
        if (item == null || item.isBlank()) {
            response.sendError(HttpServletResponse.SC_BAD_REQUEST, "item is missing");
            return;
        }
        try {
            transaction.begin();
            // The pooled connection joins the transaction: the send is part of it, like a database update would be.
            try (JMSContext context = connectionFactory.createContext()) {
                context.createProducer().send(context.createQueue(Orders.QUEUE), item);
            }
            transaction.commit();
        } catch (Exception e) {
            rollback();
            throw new IOException("sending " + item + " failed", e);
        }
        response.setContentType("text/plain");
        response.getWriter().print("sent " + item);
    }

    private void rollback() {
        try {
            transaction.rollback();
        } catch (Exception e) {
            // not active any more: the commit failed, and the transaction is over
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        response.getWriter().print(String.join("\n", received.items()));
    }
}
