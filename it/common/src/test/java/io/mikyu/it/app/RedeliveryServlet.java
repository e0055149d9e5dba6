package io.mikyu.it.app;

import io.mikyu.it.Names;
import jakarta.annotation.Resource;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Enumeration;

/**
 * The redelivery scenario's side of the application, through the server's pooled connection factory for it (whose
 * {@code maxAttempts} is the beans' activations': whichever creates a queue first gives it its limit).
 * {@code POST /send?queue=transacted|bean-managed&body=B[&fail=throw|rollbackOnly]}: sends B to the queue of the
 * container-managed or the bean-managed bean, with the failure the bean is to act out
 * ({@link FailOnDemandListener}). {@code GET /dead-letters?queue=transacted|bean-managed}: browses that queue's
 * dead-letter queue ({@code <queue>/dlq}), one message a line: body, tab, its {@code fail} property.
 */
@WebServlet({"/send", "/dead-letters"})
public class RedeliveryServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Resource(lookup = Names.REDELIVERY_CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    @Resource(lookup = Names.REDELIVERY_TRANSACTED_QUEUE)
    private Queue transactedQueue;

    @Resource(lookup = Names.REDELIVERY_BEAN_MANAGED_QUEUE)
    private Queue beanManagedQueue;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        try (JMSContext jms = connectionFactory.createContext()) {
            Message message = jms.createTextMessage(request.getParameter("body"));
            String fail = request.getParameter("fail");
            if (fail != null) {
                message.setStringProperty(FailOnDemandListener.FAIL, fail);
            }
            jms.createProducer().send(queue(request), message);
        } catch (JMSException | RuntimeException e) {
            failed(response, e);
            return;
        }
        response.setContentType("text/plain");
        response.getWriter().print("sent");
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        StringBuilder out = new StringBuilder();
        try (JMSContext jms = connectionFactory.createContext();
             QueueBrowser browser = jms.createBrowser(jms.createQueue(queue(request).getQueueName() + "/dlq"))) {
            Enumeration<?> messages = browser.getEnumeration();
            while (messages.hasMoreElements()) {
                Message m = (Message) messages.nextElement();
                out.append(m.getBody(String.class)).append('\t')
                        .append(m.getStringProperty(FailOnDemandListener.FAIL)).append('\n');
            }
        } catch (JMSException | RuntimeException e) {
            failed(response, e);
            return;
        }
        response.setContentType("text/plain");
        response.getWriter().print(out);
    }

    private Queue queue(HttpServletRequest request) {
        String queue = String.valueOf(request.getParameter("queue"));
        return switch (queue) {
            case "transacted" -> transactedQueue;
            case "bean-managed" -> beanManagedQueue;
            default -> throw new IllegalArgumentException("no queue for '" + queue + "'");
        };
    }

    /** The failure as plain text, for the test's assertion message. */
    private static void failed(HttpServletResponse response, Exception e) throws IOException {
        response.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
        response.setContentType("text/plain");
        e.printStackTrace(response.getWriter());
    }
}
