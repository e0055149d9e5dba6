package io.mikyu.it.app;

import io.mikyu.it.Names;
import jakarta.annotation.Resource;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Topic;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code POST /publish?to=durable|shared&body=B1[&body=B2...]}: publishes each body, in order, to the durable or
 * the shared subscription's topic through the server's pooled connection factory, outside any transaction (each
 * send takes effect at once).
 */
@WebServlet("/publish")
public class PublishServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Resource(lookup = Names.CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    @Resource(lookup = Names.DURABLE_TOPIC)
    private Topic durableTopic;

    @Resource(lookup = Names.SHARED_TOPIC)
    private Topic sharedTopic;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String[] bodies = request.getParameterValues("body");
        try (JMSContext jms = connectionFactory.createContext()) {
            Topic topic = switch (String.valueOf(request.getParameter("to"))) {
                case "durable" -> durableTopic;
                case "shared" -> sharedTopic;
                default -> throw new IllegalArgumentException("no topic for '" + request.getParameter("to") + "'");
            };
            JMSProducer producer = jms.createProducer();
            for (String body : bodies == null ? new String[0] : bodies) {
                producer.send(topic, body);
            }
        } catch (RuntimeException e) {
            // the failure as plain text, for the test's assertion message
            response.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
            response.setContentType("text/plain");
            e.printStackTrace(response.getWriter());
            return;
        }
        response.setContentType("text/plain");
        response.getWriter().print("published " + (bodies == null ? 0 : bodies.length));
    }
}
