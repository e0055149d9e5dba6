package io.mikyu.it.app;

import io.mikyu.it.Names;
import jakarta.annotation.Resource;
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
 * {@code POST /send?body=B&outcome=commit|rollback}: sends B to the test queue through the server's pooled
 * connection factory inside a JTA transaction, then commits or rolls back. {@code GET /received}: what the
 * message-driven bean has received, one body a line.
 */
@WebServlet({"/send", "/received"})
public class SendServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Resource(lookup = Names.CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    @Resource(lookup = Names.QUEUE)
    private Queue queue;

    @Resource
    private UserTransaction transaction;

    @jakarta.ejb.EJB
    private Receipts receipts;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        String body = request.getParameter("body");
        boolean commit = !"rollback".equals(request.getParameter("outcome"));
        try {
            transaction.begin();
            try (JMSContext context = connectionFactory.createContext()) {
                context.createProducer().send(queue, body);
            } catch (RuntimeException e) {
                transaction.setRollbackOnly();
                throw e;
            }
            if (commit && transaction.getStatus() == Status.STATUS_ACTIVE) {
                transaction.commit();
            } else {
                transaction.rollback();
            }
        } catch (Exception e) {
            // the failure as plain text, for the test's assertion message
            response.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
            response.setContentType("text/plain");
            e.printStackTrace(response.getWriter());
            return;
        }
        response.setContentType("text/plain");
        response.getWriter().print(commit ? "committed" : "rolled back");
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        response.getWriter().print(String.join("\n", receipts.bodies()));
    }
}
