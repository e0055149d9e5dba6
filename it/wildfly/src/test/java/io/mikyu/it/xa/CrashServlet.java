package io.mikyu.it.xa;

import io.mikyu.it.Names;
import jakarta.annotation.Resource;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.UserTransaction;
import java.io.IOException;

/**
 * {@code POST /crash?body=B}: one JTA transaction with three branches, enlisted in this order: the
 * {@link FileResource}, then mikyu's on the daemon ({@code tcp://}) and mikyu's on the server's embedded store
 * ({@code vm://}), B sent to the crash queue through each one's pooled connection factory; then commit. While the
 * resource is armed the commit never returns: the test kills the server in it.
 */
@WebServlet("/crash")
public class CrashServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Resource
    private UserTransaction transaction;

    @Resource(lookup = Names.TRANSACTION_MANAGER)
    private TransactionManager transactionManager;

    @Resource(lookup = Names.TCP_CONNECTION_FACTORY)
    private ConnectionFactory daemon;

    @Resource(lookup = Names.CONNECTION_FACTORY)
    private ConnectionFactory embedded;

    @Resource(lookup = Names.XA_CRASH)
    private Queue queue;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        try {
            transaction.begin();
            transactionManager.getTransaction().enlistResource(new FileResource(FileResource.directory()));
            for (ConnectionFactory store : new ConnectionFactory[] {daemon, embedded}) {
                try (JMSContext jms = store.createContext()) {
                    jms.createProducer().send(queue, request.getParameter("body"));
                }
            }
            transaction.commit();
        } catch (Exception e) {
            response.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
            response.setContentType("text/plain");
            e.printStackTrace(response.getWriter());
            return;
        }
        response.setContentType("text/plain");
        response.getWriter().print("committed");
    }
}
