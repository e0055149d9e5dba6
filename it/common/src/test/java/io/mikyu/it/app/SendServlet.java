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
 * {@code POST /send?target=vm|tcp&body=B&outcome=commit|rollback}: sends B to the target's queue through the
 * target's pooled connection factory ({@code vm}: an engine inside the server, {@code tcp}: a daemon) inside a JTA
 * transaction, then commits or rolls back. {@code GET /received}: what this application's message-driven bean has
 * received, one body a line.
 */
@WebServlet({"/send", "/received"})
public class SendServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Resource(lookup = Names.CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    @Resource(lookup = Names.QUEUE)
    private Queue queue;

    @Resource(lookup = Names.TCP_CONNECTION_FACTORY)
    private ConnectionFactory tcpConnectionFactory;

    @Resource(lookup = Names.TCP_QUEUE)
    private Queue tcpQueue;

    @Resource
    private UserTransaction transaction;

    @jakarta.ejb.EJB
    private Receipts receipts;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        String body = request.getParameter("body");
        boolean commit = !"rollback".equals(request.getParameter("outcome"));
        boolean tcp = "tcp".equals(request.getParameter("target"));
        try {
            transaction.begin();
            try (JMSContext context = (tcp ? tcpConnectionFactory : connectionFactory).createContext()) {
                context.createProducer().send(tcp ? tcpQueue : queue, body);
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
