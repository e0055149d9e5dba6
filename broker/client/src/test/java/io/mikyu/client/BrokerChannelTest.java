package io.mikyu.client;

import io.mikyu.engine.NoAnswerException;
import io.mikyu.engine.QueueNotFoundException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.protocol.ErrorCode;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.Op;
import io.mikyu.transport.Endpoint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The client's side of the protocol against a scripted broker on loopback: answers find their calls by request id
 * whatever their order, an error fails only its own call, a call nobody answers times out, and a lost connection
 * repeats what is harmless to repeat on the next one and fails what is not.
 */
@Timeout(120)
class BrokerChannelTest {

    /** Generous: the machines that run the tests may be loaded; a passing test never waits this long. */
    private static final long DEADLINE_SECONDS = 30;

    private final ExecutorService callers = Executors.newCachedThreadPool();

    @AfterEach
    void stopCallers() {
        callers.shutdownNow();
    }

    private static BrokerChannel open(ScriptedBroker broker, String options) {
        String uri = broker.uri(options);
        return BrokerChannel.open(Endpoint.parse(uri), ClientOptions.from(URI.create(uri), Map.of()));
    }

    /** A call whose request is the queue's name and whose answer is a number. */
    private static long endOffset(BrokerChannel c, String queue) {
        return c.call(Op.END_OFFSET, b -> Fields.writeString(b, queue), Fields::readLong);
    }

    private static String queueOf(ScriptedBroker.Request r) {
        return Fields.readString(r.bodyBuffer());
    }

    private Future<Long> inBackground(BrokerChannel c, String queue) {
        return callers.submit(() -> endOffset(c, queue));
    }

    private static <T> T result(Future<T> f) throws Exception {
        return f.get(DEADLINE_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void callsInFlightTogetherEachGetTheirOwnAnswerWhateverTheOrder() throws Exception {
        try (ScriptedBroker broker = ScriptedBroker.start(); BrokerChannel c = open(broker, "")) {
            Future<Long> a = inBackground(c, "a");
            Future<Long> b = inBackground(c, "b");
            Future<Long> z = inBackground(c, "z");
            List<ScriptedBroker.Request> arrived = List.of(broker.next(), broker.next(), broker.next());
            assertThat(arrived).extracting(ScriptedBroker.Request::id).as("one request id per call")
                    .doesNotHaveDuplicates();
            // answered last to first, each with a number only its own call can expect
            for (int i = arrived.size() - 1; i >= 0; i--) {
                ScriptedBroker.Request r = arrived.get(i);
                long answer = queueOf(r).charAt(0);
                broker.answer(r, body -> body.writeLong(answer));
            }
            assertThat(result(a)).isEqualTo('a');
            assertThat(result(b)).isEqualTo('b');
            assertThat(result(z)).isEqualTo('z');
        }
    }

    @Test
    void anErrorAnswerFailsOnlyItsOwnCallWithTheEnginesException() throws Exception {
        try (ScriptedBroker broker = ScriptedBroker.start(); BrokerChannel c = open(broker, "")) {
            Future<Long> missing = inBackground(c, "missing");
            Future<Long> there = inBackground(c, "there");
            for (int i = 0; i < 2; i++) {
                ScriptedBroker.Request r = broker.next();
                if (queueOf(r).equals("missing")) {
                    broker.fail(r, ErrorCode.QUEUE_NOT_FOUND, "no queue 'missing'");
                } else {
                    broker.answer(r, body -> body.writeLong(42));
                }
            }
            assertThatThrownBy(() -> result(missing)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(QueueNotFoundException.class).hasMessageContaining("no queue 'missing'");
            assertThat(result(there)).isEqualTo(42);
            assertThat(c.isOpen()).as("an error answer is no reason to close").isTrue();
        }
    }

    @Test
    void aCallNobodyAnswersTimesOutAndItsLateAnswerIsDropped() throws Exception {
        try (ScriptedBroker broker = ScriptedBroker.start(); BrokerChannel c = open(broker, "requestTimeout=1s")) {
            Future<Long> unanswered = inBackground(c, "slow");
            ScriptedBroker.Request late = broker.next();
            assertThatThrownBy(() -> result(unanswered)).cause().isInstanceOf(NoAnswerException.class)
                    .hasMessageContaining("END_OFFSET");
            broker.answer(late, body -> body.writeLong(1));

            Future<Long> next = inBackground(c, "next");
            broker.answer(broker.next(), body -> body.writeLong(2));
            assertThat(result(next)).as("the late answer went to no one else").isEqualTo(2);
        }
    }

    @Test
    void aRepeatableCallInFlightIsSentAgainOnTheNextConnection() throws Exception {
        try (ScriptedBroker broker = ScriptedBroker.start(); BrokerChannel c = open(broker, "reconnect=60s")) {
            Future<Long> call = inBackground(c, "q");
            ScriptedBroker.Request first = broker.next();
            broker.drop(first);
            ScriptedBroker.Request again = broker.next();
            assertThat(again.channel()).as("on a new connection").isNotSameAs(first.channel());
            assertThat(again.op()).isEqualTo(Op.END_OFFSET);
            assertThat(queueOf(again)).isEqualTo("q");
            assertThat(broker.handshakes()).isEqualTo(2);
            broker.answer(again, body -> body.writeLong(7));
            assertThat(result(call)).isEqualTo(7);
            assertThat(c.isOpen()).isTrue();
        }
    }

    @Test
    void aCallWhoseOutcomeIsUnknownFailsWhenTheConnectionIsLostAndTheNextOneGoesThrough() throws Exception {
        try (ScriptedBroker broker = ScriptedBroker.start(); BrokerChannel c = open(broker, "reconnect=60s")) {
            Future<Object> ack = callers.submit(() -> c.call(Op.TASK_ACK, b -> Fields.writeString(b, "jobs"),
                    b -> null));
            broker.drop(broker.next());
            assertThatThrownBy(() -> result(ack)).cause().isInstanceOf(StoreClosedException.class)
                    .hasMessageContaining("TASK_ACK was in flight");

            Future<Long> next = inBackground(c, "q");
            ScriptedBroker.Request r = broker.next();
            assertThat(r.op()).as("the ack is not sent again").isEqualTo(Op.END_OFFSET);
            broker.answer(r, body -> body.writeLong(3));
            assertThat(result(next)).isEqualTo(3);
            assertThat(broker.handshakes()).isEqualTo(2);
        }
    }

    @Test
    void withoutReconnectALostConnectionFailsItsCallsAndStaysClosed() throws Exception {
        try (ScriptedBroker broker = ScriptedBroker.start(); BrokerChannel c = open(broker, "")) {
            Future<Long> call = inBackground(c, "q");
            broker.drop(broker.next());
            assertThatThrownBy(() -> result(call)).cause().isInstanceOf(StoreClosedException.class)
                    .hasMessageContaining("was closed");
            assertThat(c.isOpen()).isFalse();
            assertThatThrownBy(() -> endOffset(c, "q")).isInstanceOf(StoreClosedException.class);
            assertThat(broker.handshakes()).as("no second connection").isEqualTo(1);
        }
    }
}
