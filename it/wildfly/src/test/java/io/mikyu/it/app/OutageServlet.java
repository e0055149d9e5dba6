package io.mikyu.it.app;

import io.mikyu.it.Names;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.transaction.Status;
import jakarta.transaction.UserTransaction;
import java.io.IOException;

/**
 * {@code POST /outage/send?body=B}: sends B through the outage pool inside a JTA transaction and commits; answers
 * {@code committed} only once the commit returned, else 500 with the failure. {@code GET /outage/received}: the
 * bodies whose delivery transaction committed, one a line; {@code ?what=delivered}: every delivery, with its
 * {@code JMSRedelivered} flag.
 */
@WebServlet("/outage/*")
public class OutageServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Resource(lookup = Names.OUTAGE_CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    @Resource(lookup = Names.OUTAGE_QUEUE)
    private Queue queue;

    @Resource
    private UserTransaction transaction;

    @EJB
    private DeliveryLog log;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String body = request.getParameter("body");
        try {
            transaction.begin();
            try (JMSContext context = connectionFactory.createContext()) {
                context.createProducer().send(queue, body);
            } catch (RuntimeException e) {
                transaction.setRollbackOnly();
                throw e;
            }
            if (transaction.getStatus() != Status.STATUS_ACTIVE) {
                transaction.rollback();
                throw new IllegalStateException("the transaction is no longer active: status "
                        + transaction.getStatus());
            }
            transaction.commit();
        } catch (Exception e) {
            rollbackIfActive();
            response.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
            response.setContentType("text/plain");
            e.printStackTrace(response.getWriter());
            return;
        }
        response.setContentType("text/plain");
        response.getWriter().print("committed");
    }

    private void rollbackIfActive() {
        try {
            if (transaction.getStatus() != Status.STATUS_NO_TRANSACTION) {
                transaction.rollback();
            }
        } catch (Exception ignored) {
            // the failure being reported is the one that matters
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        response.getWriter().print(String.join("\n",
                "delivered".equals(request.getParameter("what")) ? log.delivered() : log.committed()));
    }
}
