package io.mikyu.it.xa;

import io.mikyu.it.Names;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import javax.sql.DataSource;

/**
 * The XA scenarios' entry points, each answering text:
 * <ul>
 *   <li>{@code POST /xa/place?body=B&outcome=COMMIT|ROLLBACK_ONLY|FAIL_AFTER_BOTH}: {@link OrderService#place};
 *   the answer is the outcome, or the failure.</li>
 *   <li>{@code POST /xa/inbox?body=B}: sends B to the inbox bean's queue (its own transaction, committed).</li>
 *   <li>{@code GET /xa/rows?body=B}: how many order rows hold B.</li>
 *   <li>{@code GET /xa/queued?queue=orders|inbox}: the bodies waiting in that queue, one a line (a browser
 *   through the pooled connection factory, outside any transaction).</li>
 *   <li>{@code GET /xa/attempts?body=B}: the inbox bean's deliveries of B, one a line.</li>
 * </ul>
 */
@WebServlet("/xa/*")
public class XaServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @EJB
    private OrderService orderService;

    @EJB
    private Attempts attempts;

    @Resource(lookup = Names.XA_DATASOURCE)
    private DataSource dataSource;

    @Resource(lookup = Names.CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    @Resource(lookup = Names.XA_ORDERS)
    private Queue orders;

    @Resource(lookup = Names.XA_INBOX)
    private Queue inbox;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String body = request.getParameter("body");
        try {
            switch (request.getPathInfo()) {
                case "/place" -> {
                    Outcome outcome = Outcome.valueOf(request.getParameter("outcome"));
                    orderService.place(body, outcome);
                    answer(response, outcome.name());
                }
                case "/inbox" -> {
                    try (JMSContext jms = connectionFactory.createContext()) {
                        jms.createProducer().send(inbox, body);
                    }
                    answer(response, "sent");
                }
                default -> response.sendError(HttpServletResponse.SC_NOT_FOUND);
            }
        } catch (Exception e) {
            // the failure as text: a test may expect it (FAIL_AFTER_BOTH) or show it
            response.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
            response.setContentType("text/plain");
            e.printStackTrace(response.getWriter());
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        try {
            switch (request.getPathInfo()) {
                case "/rows" -> answer(response, Integer.toString(OrderRows.count(dataSource, request.getParameter("body"))));
                case "/queued" -> answer(response, String.join("\n",
                        browse("inbox".equals(request.getParameter("queue")) ? inbox : orders)));
                case "/attempts" -> answer(response, String.join("\n", attempts.of(request.getParameter("body"))));
                default -> response.sendError(HttpServletResponse.SC_NOT_FOUND);
            }
        } catch (Exception e) {
            response.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
            response.setContentType("text/plain");
            e.printStackTrace(response.getWriter());
        }
    }

    private List<String> browse(Queue queue) throws Exception {
        List<String> bodies = new ArrayList<>();
        try (JMSContext jms = connectionFactory.createContext(); QueueBrowser browser = jms.createBrowser(queue)) {
            Enumeration<?> messages = browser.getEnumeration();
            while (messages.hasMoreElements()) {
                bodies.add(((Message) messages.nextElement()).getBody(String.class));
            }
        }
        return bodies;
    }

    private static void answer(HttpServletResponse response, String text) throws IOException {
        response.setContentType("text/plain");
        response.getWriter().print(text);
    }
}
