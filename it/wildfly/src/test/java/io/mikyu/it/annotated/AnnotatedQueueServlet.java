package io.mikyu.it.annotated;

import io.mikyu.it.app.Receipts;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.transaction.UserTransaction;
import java.io.IOException;

/**
 * Through the annotation-defined factory and queue ({@link AnnotatedResources}):
 * {@code POST /annotated?body=B&outcome=commit|rollback[&to=bean]} sends B in a JTA transaction and ends it so, to
 * the queue or to the message-driven bean's; {@code GET /annotated?received}: what the bean received, a line each;
 * {@code GET /annotated?waitMillis=N} receives one message (outside a transaction) and answers its body, or
 * {@code none} when none came within N ms; {@code GET /annotated?clientId} answers the client identifier of the
 * factory's connections.
 */
@WebServlet("/annotated")
public class AnnotatedQueueServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Resource(lookup = AnnotatedResources.CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    @Resource(lookup = AnnotatedResources.QUEUE)
    private Queue queue;

    @Resource(lookup = AnnotatedResources.BEAN_QUEUE)
    private Queue beanQueue;

    @Resource
    private UserTransaction transaction;

    @EJB
    private Receipts receipts;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String body = request.getParameter("body");
        boolean commit = "commit".equals(request.getParameter("outcome"));
        try {
            transaction.begin();
            try (JMSContext jms = connectionFactory.createContext()) {
                jms.createProducer().send("bean".equals(request.getParameter("to")) ? beanQueue : queue, body);
            }
            if (commit) {
                transaction.commit();
            } else {
                transaction.rollback();
            }
        } catch (Exception e) {
            fail(response, e);
            return;
        }
        answer(response, (commit ? "committed " : "rolled back ") + body);
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (request.getParameter("received") != null) {
            answer(response, String.join("\n", receipts.bodies()));
            return;
        }
        if (request.getParameter("clientId") != null) {
            try (JMSContext jms = connectionFactory.createContext()) {
                answer(response, String.valueOf(jms.getClientID()));
            }
            return;
        }
        long waitMillis = Long.parseLong(request.getParameter("waitMillis"));
        String body;
        try (JMSContext jms = connectionFactory.createContext();
             JMSConsumer consumer = jms.createConsumer(queue)) {
            body = consumer.receiveBody(String.class, waitMillis);
        } catch (RuntimeException e) {
            fail(response, e);
            return;
        }
        answer(response, body == null ? "none" : body);
    }

    private static void answer(HttpServletResponse response, String text) throws IOException {
        response.setContentType("text/plain");
        response.getWriter().print(text);
    }

    /** The failure as plain text, for the test's assertion message. */
    private static void fail(HttpServletResponse response, Exception e) throws IOException {
        response.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
        response.setContentType("text/plain");
        e.printStackTrace(response.getWriter());
    }
}
