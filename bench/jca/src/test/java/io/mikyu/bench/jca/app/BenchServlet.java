package io.mikyu.bench.jca.app;

import jakarta.annotation.Resource;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Queue;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.UserTransaction;
import java.io.IOException;
import java.util.Arrays;

/**
 * The application both sides run, through the side's pooled connection factory ({@code side=mikyu|artemis}),
 * every JMS call inside a JTA transaction as an application does:
 * <ul>
 *   <li>{@code POST /send?side=S&size=B}: one PERSISTENT BytesMessage of B bytes to the side's send queue, in a
 *   transaction of its own (the measured request);</li>
 *   <li>{@code POST /preload?side=S&size=B&count=N&batch=K}: N such messages to the side's consume queue, K per
 *   transaction, for the message-driven bean to consume later;</li>
 *   <li>{@code POST /drain?side=S&queue=send|consume}: receives until the queue stays empty, 500 per transaction,
 *   and answers how many it received.</li>
 * </ul>
 */
@WebServlet({"/send", "/preload", "/drain"})
public class BenchServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final int DRAIN_BATCH = 500;
    /** How long an empty queue is waited on before the drain ends. */
    private static final long DRAIN_EMPTY_MILLIS = 2000;

    @Resource(lookup = BenchNames.MIKYU_CONNECTION_FACTORY)
    private ConnectionFactory mikyu;
    @Resource(lookup = BenchNames.MIKYU_CONSUME_QUEUE)
    private Queue mikyuConsume;
    @Resource(lookup = BenchNames.MIKYU_SEND_QUEUE)
    private Queue mikyuSend;

    @Resource(lookup = BenchNames.ARTEMIS_CONNECTION_FACTORY)
    private ConnectionFactory artemis;
    @Resource(lookup = BenchNames.ARTEMIS_CONSUME_QUEUE)
    private Queue artemisConsume;
    @Resource(lookup = BenchNames.ARTEMIS_SEND_QUEUE)
    private Queue artemisSend;

    @Resource
    private UserTransaction transaction;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        boolean isMikyu = switch (request.getParameter("side")) {
            case "mikyu" -> true;
            case "artemis" -> false;
            default -> throw new IllegalArgumentException("side must be mikyu or artemis");
        };
        ConnectionFactory factory = isMikyu ? mikyu : artemis;
        String answer;
        try {
            switch (request.getServletPath()) {
                case "/send" -> {
                    send(factory, isMikyu ? mikyuSend : artemisSend, payload(request), 1);
                    answer = "sent";
                }
                case "/preload" -> {
                    byte[] payload = payload(request);
                    int count = Integer.parseInt(request.getParameter("count"));
                    int batch = Integer.parseInt(request.getParameter("batch"));
                    for (int sent = 0; sent < count; sent += batch) {
                        send(factory, isMikyu ? mikyuConsume : artemisConsume, payload, Math.min(batch, count - sent));
                    }
                    answer = Integer.toString(count);
                }
                case "/drain" -> {
                    boolean consumeQueue = "consume".equals(request.getParameter("queue"));
                    Queue queue = isMikyu ? (consumeQueue ? mikyuConsume : mikyuSend)
                            : (consumeQueue ? artemisConsume : artemisSend);
                    answer = Long.toString(drain(factory, queue));
                }
                default -> throw new IllegalArgumentException(request.getServletPath());
            }
        } catch (Exception e) {
            response.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
            response.setContentType("text/plain");
            e.printStackTrace(response.getWriter());
            return;
        }
        response.setContentType("text/plain");
        response.getWriter().print(answer);
    }

    private static byte[] payload(HttpServletRequest request) {
        byte[] payload = new byte[Integer.parseInt(request.getParameter("size"))];
        Arrays.fill(payload, (byte) 'm');
        return payload;
    }

    /** {@code count} messages in one transaction. */
    private void send(ConnectionFactory factory, Queue queue, byte[] payload, int count) throws Exception {
        transaction.begin();
        try {
            try (JMSContext context = factory.createContext()) {
                JMSProducer producer = context.createProducer();
                for (int i = 0; i < count; i++) {
                    producer.send(queue, payload);
                }
            }
            transaction.commit();
        } finally {
            rollbackIfActive();
        }
    }

    private long drain(ConnectionFactory factory, Queue queue) throws Exception {
        long drained = 0;
        int received;
        do {
            received = 0;
            transaction.begin();
            try {
                try (JMSContext context = factory.createContext(); JMSConsumer consumer = context.createConsumer(queue)) {
                    while (received < DRAIN_BATCH
                            && consumer.receive(received == 0 ? DRAIN_EMPTY_MILLIS : 200) != null) {
                        received++;
                    }
                }
                transaction.commit();
            } finally {
                rollbackIfActive();
            }
            drained += received;
        } while (received > 0);
        return drained;
    }

    /** After a failure: the transaction, if this thread still has one, is rolled back. */
    private void rollbackIfActive() throws SystemException {
        if (transaction.getStatus() != Status.STATUS_NO_TRANSACTION) {
            transaction.rollback();
        }
    }
}
