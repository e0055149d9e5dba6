package io.mikyu.jms.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Record;
import io.mikyu.engine.Task;
import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.Test;

class MessageCodecTest {

    private final MessageCodec codec = TestDestinations.codec();
    private static final TestDestinations.TestQueue ORDERS = new TestDestinations.TestQueue("orders");
    private static final TestDestinations.TestTopic PRICES = new TestDestinations.TestTopic("prices");

    private static void setAllHeadersAndProperties(Message m) throws JMSException {
        m.setJMSMessageID("ID:abc-1");
        m.setJMSTimestamp(1_700_000_000_000L);
        m.setJMSCorrelationID("corr-7");
        m.setJMSReplyTo(PRICES);
        m.setJMSType("OrderPlaced");
        m.setJMSDeliveryMode(DeliveryMode.NON_PERSISTENT);
        m.setJMSExpiration(1_700_000_060_000L);
        m.setJMSDeliveryTime(1_700_000_005_000L);
        m.setJMSPriority(7);
        m.setBooleanProperty("pBoolean", true);
        m.setByteProperty("pByte", (byte) -1);
        m.setShortProperty("pShort", (short) 300);
        m.setIntProperty("pInt", -5);
        m.setLongProperty("pLong", Long.MIN_VALUE);
        m.setFloatProperty("pFloat", 1.5f);
        m.setDoubleProperty("pDouble", Double.NaN);
        m.setStringProperty("pString", "caf\u00e9 \uD83D\uDE00");
        m.setStringProperty("pNull", null);
        m.setStringProperty("JMSXGroupID", "group-1");
        m.setIntProperty("JMSXGroupSeq", 2);
    }

    private static void assertAllHeadersAndProperties(Message m) throws JMSException {
        assertThat(m.getJMSMessageID()).isEqualTo("ID:abc-1");
        assertThat(m.getJMSTimestamp()).isEqualTo(1_700_000_000_000L);
        assertThat(m.getJMSCorrelationID()).isEqualTo("corr-7");
        assertThat(m.getJMSReplyTo()).isEqualTo(PRICES);
        assertThat(m.getJMSType()).isEqualTo("OrderPlaced");
        assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
        assertThat(m.getJMSExpiration()).isEqualTo(1_700_000_060_000L);
        assertThat(m.getJMSDeliveryTime()).isEqualTo(1_700_000_005_000L);
        assertThat(m.getJMSPriority()).isEqualTo(7);
        assertThat(m.getObjectProperty("pBoolean")).isEqualTo(true);
        assertThat(m.getObjectProperty("pByte")).isEqualTo((byte) -1);
        assertThat(m.getObjectProperty("pShort")).isEqualTo((short) 300);
        assertThat(m.getObjectProperty("pInt")).isEqualTo(-5);
        assertThat(m.getObjectProperty("pLong")).isEqualTo(Long.MIN_VALUE);
        assertThat(m.getObjectProperty("pFloat")).isEqualTo(1.5f);
        assertThat((Double) m.getObjectProperty("pDouble")).isNaN();
        assertThat(m.getObjectProperty("pString")).isEqualTo("caf\u00e9 \uD83D\uDE00");
        assertThat(m.propertyExists("pNull")).isTrue();
        assertThat(m.getObjectProperty("pNull")).isNull();
        assertThat(m.getStringProperty("JMSXGroupID")).isEqualTo("group-1");
        assertThat(m.getIntProperty("JMSXGroupSeq")).isEqualTo(2);
    }

    private MikyuMessage roundTrip(Message m, int attempt) throws JMSException {
        EncodedMessage e = codec.encode(m);
        return codec.decode(e.headers(), e.payload(), attempt, ORDERS);
    }

    // ================================================================ round trips

    @Test
    void plainMessageRoundTripsWithAllHeadersAndProperties() throws JMSException {
        MikyuMessage m = new MikyuMessage();
        setAllHeadersAndProperties(m);
        MikyuMessage back = roundTrip(m, 1);
        assertThat(back.getClass()).isEqualTo(MikyuMessage.class);
        assertAllHeadersAndProperties(back);
        assertThat(back.getJMSDestination()).isEqualTo(ORDERS);
    }

    @Test
    void textMessageRoundTrips() throws JMSException {
        MikyuTextMessage m = new MikyuTextMessage("h\u00e9llo \uD83D\uDE00");
        setAllHeadersAndProperties(m);
        MikyuMessage back = roundTrip(m, 1);
        assertThat(back).isInstanceOf(TextMessage.class);
        assertThat(((TextMessage) back).getText()).isEqualTo("h\u00e9llo \uD83D\uDE00");
        assertAllHeadersAndProperties(back);
    }

    @Test
    void nullAndEmptyTextBodiesStayDistinct() throws JMSException {
        MikyuTextMessage nullText = new MikyuTextMessage();
        EncodedMessage e = codec.encode(nullText);
        assertThat(e.payload()).isEmpty();
        assertThat(TypedValues.fromHeaderValue(e.headers().get(MessageCodec.NULL_BODY))).isEqualTo(true);
        assertThat(((TextMessage) codec.decode(e.headers(), e.payload(), 1)).getText()).isNull();

        MikyuTextMessage emptyText = new MikyuTextMessage("");
        EncodedMessage e2 = codec.encode(emptyText);
        assertThat(e2.headers().get(MessageCodec.NULL_BODY)).isNull();
        assertThat(((TextMessage) codec.decode(e2.headers(), e2.payload(), 1)).getText()).isEmpty();
    }

    @Test
    void bytesMessageRoundTripsAndArrivesReadyToRead() throws JMSException {
        MikyuBytesMessage m = new MikyuBytesMessage();
        m.writeInt(42);
        m.writeUTF("x");
        setAllHeadersAndProperties(m);
        BytesMessage back = (BytesMessage) roundTrip(m, 1);
        assertThat(back.getBodyLength()).isEqualTo(7);
        assertThat(back.readInt()).isEqualTo(42);
        assertThat(back.readUTF()).isEqualTo("x");
        assertAllHeadersAndProperties(back);
    }

    @Test
    void encodingAWriteModeBytesMessageLeavesItWritable() throws JMSException {
        MikyuBytesMessage m = new MikyuBytesMessage();
        m.writeInt(1);
        EncodedMessage e = codec.encode(m);
        assertThat(e.payload()).containsExactly(0, 0, 0, 1);
        m.writeInt(2);
        assertThat(codec.encode(m).payload()).hasSize(8);
    }

    @Test
    void mapMessageRoundTripsEveryValueType() throws JMSException {
        MikyuMapMessage m = new MikyuMapMessage();
        for (ValueKind kind : ValueKind.values()) {
            m.setObject(kind.name(), kind.sample);
        }
        m.setString("null", null);
        m.setString("long string", "x".repeat(100_000));
        setAllHeadersAndProperties(m);
        MapMessage back = (MapMessage) roundTrip(m, 1);
        for (ValueKind kind : ValueKind.values()) {
            assertThat(back.getObject(kind.name())).as(kind.name()).isEqualTo(kind.sample);
        }
        assertThat(back.itemExists("null")).isTrue();
        assertThat(back.getObject("null")).isNull();
        assertThat(back.getString("long string")).hasSize(100_000);
        assertThat(Collections.list(back.getMapNames())).hasSize(ValueKind.values().length + 2);
        assertAllHeadersAndProperties(back);
    }

    @Test
    void streamMessageRoundTripsEveryValueTypeAndArrivesReadyToRead() throws JMSException {
        MikyuStreamMessage m = new MikyuStreamMessage();
        for (ValueKind kind : ValueKind.values()) {
            m.writeObject(kind.sample);
        }
        m.writeObject(null);
        setAllHeadersAndProperties(m);
        StreamMessage back = (StreamMessage) roundTrip(m, 1);
        for (ValueKind kind : ValueKind.values()) {
            assertThat(back.readObject()).as(kind.name()).isEqualTo(kind.sample);
        }
        assertThat(back.readObject()).isNull();
        assertAllHeadersAndProperties(back);
    }

    @Test
    void emptyStreamAndMapBodiesRoundTrip() throws JMSException {
        assertThat(((MikyuStreamMessage) roundTrip(new MikyuStreamMessage(), 1)).values()).isEmpty();
        assertThat(((MikyuMapMessage) roundTrip(new MikyuMapMessage(), 1)).map()).isEmpty();
    }

    @Test
    void objectMessageRoundTrips() throws JMSException {
        MikyuObjectMessage m = new MikyuObjectMessage();
        m.setObject(new ArrayList<>(List.of("a", "b")));
        setAllHeadersAndProperties(m);
        ObjectMessage back = (ObjectMessage) roundTrip(m, 1);
        assertThat(back.getObject()).isEqualTo(List.of("a", "b"));
        assertAllHeadersAndProperties(back);

        MikyuObjectMessage empty = new MikyuObjectMessage();
        assertThat(((ObjectMessage) roundTrip(empty, 1)).getObject()).isNull();
    }

    @Test
    void correlationIdSetAsBytesRoundTripsAsBytesWithTagX() throws JMSException {
        MikyuMessage m = new MikyuMessage();
        m.setJMSCorrelationIDAsBytes(new byte[] {0, -1, 2});
        EncodedMessage e = codec.encode(m);
        assertThat(e.headers().get(MessageCodec.JMS_CORRELATION_ID)).containsExactly('X', 0, -1, 2);
        MikyuMessage back = codec.decode(e.headers(), e.payload(), 1);
        assertThat(back.isCorrelationIDBytes()).isTrue();
        assertThat(back.getJMSCorrelationIDAsBytes()).containsExactly(0, -1, 2);
    }

    // ================================================================ the wire format itself

    @Test
    void headersFollowTheWireFormat() throws JMSException {
        MikyuTextMessage m = new MikyuTextMessage("hi");
        setAllHeadersAndProperties(m);
        Headers h = codec.encode(m).headers();

        assertThat(h.get("JMSMessageID")).isEqualTo(tagged('T', "ID:abc-1"));
        assertThat(h.get("JMSTimestamp")).isEqualTo(ByteBuffer.allocate(9).put((byte) 'J')
                .putLong(1_700_000_000_000L).array());
        assertThat(h.get("JMSCorrelationID")).isEqualTo(tagged('T', "corr-7"));
        assertThat(h.get("JMSReplyTo")).isEqualTo(tagged('T', "topic://prices"));
        assertThat(h.get("JMSType")).isEqualTo(tagged('T', "OrderPlaced"));
        assertThat(h.get("JMSDeliveryMode")).containsExactly('I', 0, 0, 0, 1);
        assertThat(h.get("JMSPriority")).containsExactly('I', 0, 0, 0, 7);
        assertThat(h.get("JMSExpiration")[0]).isEqualTo((byte) 'J');
        assertThat(h.get("JMSDeliveryTime")[0]).isEqualTo((byte) 'J');
        assertThat(h.get("mikyu.jms.body")).isEqualTo(tagged('T', "text"));
        assertThat(h.get("pBoolean")).containsExactly('Z', 1);
        assertThat(h.get("pByte")).containsExactly('B', -1);
        assertThat(h.get("pShort")).containsExactly('S', 1, 44);
        assertThat(h.get("pInt")).containsExactly('I', -1, -1, -1, -5);
        assertThat(h.get("pFloat")).isEqualTo(ByteBuffer.allocate(5).put((byte) 'F')
                .putInt(Float.floatToIntBits(1.5f)).array());
        assertThat(h.get("pString")).isEqualTo(tagged('T', "caf\u00e9 \uD83D\uDE00"));
        assertThat(h.asList()).anySatisfy(header -> {
            assertThat(header.name()).isEqualTo("pNull");
            assertThat(header.value()).isNull();
        });
        assertThat(h.get("JMSDestination")).isNull();
        assertThat(h.get("JMSRedelivered")).isNull();
        assertThat(h.get("JMSXDeliveryCount")).isNull();
    }

    @Test
    void bodyTypeNamesFollowTheWireFormat() throws JMSException {
        MikyuMessage[] messages = {new MikyuMessage(), new MikyuTextMessage("t"), new MikyuBytesMessage(),
                new MikyuMapMessage(), new MikyuStreamMessage(), new MikyuObjectMessage()};
        List<String> names = new ArrayList<>();
        for (MikyuMessage m : messages) {
            names.add((String) TypedValues.fromHeaderValue(codec.encode(m).headers().get(MessageCodec.BODY_TYPE)));
        }
        assertThat(names).containsExactly("message", "text", "bytes", "map", "stream", "object");
    }

    @Test
    void mapBodyIsCountThenUtfNameAndTypedValue() throws Exception {
        MikyuMapMessage m = new MikyuMapMessage();
        m.setInt("a", 1);
        m.setString("b", "xy");
        m.setBytes("c", new byte[] {5});
        m.setObject("d", null);
        m.setChar("e", 'z');

        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(expected);
        out.writeInt(5);
        out.writeUTF("a");
        out.writeByte('I');
        out.writeInt(1);
        out.writeUTF("b");
        out.writeByte('T');
        out.writeInt(2);
        out.write("xy".getBytes(StandardCharsets.UTF_8));
        out.writeUTF("c");
        out.writeByte('X');
        out.writeInt(1);
        out.writeByte(5);
        out.writeUTF("d");
        out.writeByte('N');
        out.writeUTF("e");
        out.writeByte('C');
        out.writeChar('z');

        assertThat(codec.encode(m).payload()).isEqualTo(expected.toByteArray());
    }

    @Test
    void streamBodyIsASequenceOfTypedValues() throws Exception {
        MikyuStreamMessage m = new MikyuStreamMessage();
        m.writeBoolean(true);
        m.writeLong(3);
        m.writeDouble(0.5);
        m.writeString(null);

        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(expected);
        out.writeByte('Z');
        out.writeBoolean(true);
        out.writeByte('J');
        out.writeLong(3);
        out.writeByte('D');
        out.writeDouble(0.5);
        out.writeByte('N');

        assertThat(codec.encode(m).payload()).isEqualTo(expected.toByteArray());
    }

    private static byte[] tagged(char tag, String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(utf8.length + 1).put((byte) tag).put(utf8).array();
    }

    // ================================================================ decode state

    @Test
    void decodedMessageHasReadOnlyPropertiesAndBody() throws JMSException {
        MikyuTextMessage m = new MikyuTextMessage("x");
        m.setStringProperty("p", "v");
        TextMessage back = (TextMessage) roundTrip(m, 1);
        assertThatThrownBy(() -> back.setText("y")).isInstanceOf(MessageNotWriteableException.class);
        assertThatThrownBy(() -> back.setStringProperty("q", "w")).isInstanceOf(MessageNotWriteableException.class);
        back.setJMSType("headers stay writable");
    }

    @Test
    void firstDeliveryIsNotRedeliveredAndCountsOne() throws JMSException {
        MikyuMessage back = roundTrip(new MikyuMessage(), 1);
        assertThat(back.getJMSRedelivered()).isFalse();
        assertThat(back.getIntProperty("JMSXDeliveryCount")).isEqualTo(1);
        assertThat(Collections.list(back.getPropertyNames())).containsExactly("JMSXDeliveryCount");
    }

    @Test
    void laterDeliveryIsRedeliveredWithTheAttemptAsCount() throws JMSException {
        MikyuMessage m = new MikyuMessage();
        m.setJMSRedelivered(true);
        m.setDeliveryAttempt(5); // the sender's view must not leak into the stored record
        EncodedMessage e = codec.encode(m);
        MikyuMessage first = codec.decode(e.headers(), e.payload(), 1);
        assertThat(first.getJMSRedelivered()).isFalse();
        assertThat(first.getIntProperty("JMSXDeliveryCount")).isEqualTo(1);
        MikyuMessage third = codec.decode(e.headers(), e.payload(), 3);
        assertThat(third.getJMSRedelivered()).isTrue();
        assertThat(third.getIntProperty("JMSXDeliveryCount")).isEqualTo(3);
    }

    @Test
    void browsedRecordWithoutAttemptHasNoDeliveryCount() throws JMSException {
        MikyuMessage back = roundTrip(new MikyuMessage(), 0);
        assertThat(back.propertyExists("JMSXDeliveryCount")).isFalse();
        assertThat(back.getJMSRedelivered()).isFalse();
    }

    @Test
    void decodeDoesNotChangeThePayload() throws JMSException {
        MikyuBytesMessage m = new MikyuBytesMessage();
        m.writeBytes(new byte[] {1, 2, 3});
        EncodedMessage e = codec.encode(m);
        BytesMessage back = (BytesMessage) codec.decode(e.headers(), e.payload(), 1);
        back.clearBody();
        back.writeBytes(new byte[] {9, 9, 9});
        assertThat(e.payload()).containsExactly(1, 2, 3);
    }

    @Test
    void decodeOfLeasedTaskAndRecordUseTheirHeadersPayloadAndAttempt() throws JMSException {
        EncodedMessage e = codec.encode(new MikyuTextMessage("t"));
        LeasedTask task = new LeasedTask(1, null, 2, 4, 0, 0, 0, e.headers(), e.payload());
        MikyuMessage fromTask = codec.decode(task, ORDERS);
        assertThat(((TextMessage) fromTask).getText()).isEqualTo("t");
        assertThat(fromTask.getJMSRedelivered()).isTrue();
        assertThat(fromTask.getJMSDestination()).isEqualTo(ORDERS);

        Record record = new Record(7, 123, null, e.headers(), e.payload());
        MikyuMessage fromRecord = codec.decode(record, 1, PRICES);
        assertThat(((TextMessage) fromRecord).getText()).isEqualTo("t");
        assertThat(fromRecord.getJMSDestination()).isEqualTo(PRICES);
    }

    // ================================================================ engine forms

    @Test
    void encodedMessageBuildsATaskWithPriorityDeliverAtAndExpiresAt() throws JMSException {
        MikyuTextMessage m = new MikyuTextMessage("x");
        m.setJMSPriority(8);
        m.setJMSDeliveryTime(5_000);
        m.setJMSExpiration(9_000);
        Task task = codec.encode(m).toTask();
        assertThat(task.priority()).isEqualTo(8);
        assertThat(task.deliverAt()).isEqualTo(5_000);
        assertThat(task.expiresAt()).isEqualTo(9_000);
        assertThat(task.payload()).isEqualTo("x".getBytes(StandardCharsets.UTF_8));
        assertThat(task.headers().get(MessageCodec.BODY_TYPE)).isNotNull();
    }

    @Test
    void outOfRangePriorityIsClampedForTheEngineButKeptInTheHeader() throws JMSException {
        MikyuMessage m = new MikyuMessage();
        m.setJMSPriority(42);
        EncodedMessage e = codec.encode(m);
        assertThat(e.toTask().priority()).isEqualTo(9);
        assertThat(codec.decode(e.headers(), e.payload(), 1).getJMSPriority()).isEqualTo(42);
        m.setJMSPriority(-3);
        assertThat(codec.encode(m).toTask().priority()).isZero();
    }

    @Test
    void noExpirationOrDeliveryTimeMeansZeroInTheTask() throws JMSException {
        Task task = codec.encode(new MikyuMessage()).toTask();
        assertThat(task.deliverAt()).isZero();
        assertThat(task.expiresAt()).isZero();
        assertThat(task.payload()).isEmpty();
    }

    @Test
    void encodedMessageBuildsAnEntryStampedWithJmsTimestamp() throws JMSException {
        MikyuMessage m = new MikyuMessage();
        Entry unstamped = codec.encode(m).toEntry();
        assertThat(unstamped.timestamp()).isEqualTo(Entry.NO_TIMESTAMP);
        assertThat(unstamped.key()).isNull();
        assertThat(unstamped.isTombstone()).isFalse();
        m.setJMSTimestamp(1234);
        assertThat(codec.encode(m).toEntry().timestamp()).isEqualTo(1234);
    }

    // ================================================================ other producers and bad data

    @Test
    void recordFromANativeProducerDecodesAsBytesWithStringProperties() throws JMSException {
        Headers native_ = Headers.of("region", "eu", "content-type", "json", "JMSType", "spoof");
        MikyuMessage m = codec.decode(native_, "{}".getBytes(StandardCharsets.UTF_8), 1);
        assertThat(m).isInstanceOf(BytesMessage.class);
        BytesMessage bytes = (BytesMessage) m;
        assertThat(bytes.getBodyLength()).isEqualTo(2);
        assertThat(m.getStringProperty("region")).isEqualTo("eu");
        assertThat(m.propertyExists("content-type")).isFalse();
        assertThat(m.propertyExists("JMSType")).isFalse();
        assertThat(m.getJMSType()).isNull();
    }

    @Test
    void unknownBodyTypeIsAFormatError() {
        Headers h = Headers.builder().add(MessageCodec.BODY_TYPE, tagged('T', "hologram")).build();
        assertThatThrownBy(() -> codec.decode(h, new byte[0], 1)).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void truncatedMapBodyIsAFormatError() {
        Headers h = Headers.builder().add(MessageCodec.BODY_TYPE, tagged('T', "map")).build();
        assertThatThrownBy(() -> codec.decode(h, new byte[] {0, 0, 0, 2, 0, 1, 'a', 'I'}, 1))
                .isInstanceOf(MessageFormatException.class);
    }

    @Test
    void unknownValueTagIsAFormatError() {
        Headers h = Headers.builder().add(MessageCodec.BODY_TYPE, tagged('T', "message"))
                .add("p", new byte[] {'Q', 1}).build();
        assertThatThrownBy(() -> codec.decode(h, new byte[0], 1)).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void unknownReplyToFormIsReportedByTheDestinationCodec() {
        Headers h = Headers.builder().add(MessageCodec.BODY_TYPE, tagged('T', "message"))
                .add(MessageCodec.JMS_REPLY_TO, tagged('T', "carrier-pigeon://x")).build();
        assertThatThrownBy(() -> codec.decode(h, new byte[0], 1)).isInstanceOf(JMSException.class);
    }
}
