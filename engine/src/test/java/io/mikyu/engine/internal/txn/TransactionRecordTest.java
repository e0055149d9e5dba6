package io.mikyu.engine.internal.txn;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LeaseToken;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The transaction log's record layout: the owner is added without changing records that have none, and records of
 * store format 1 still read.
 */
class TransactionRecordTest {

    private static final byte[] XID = "xa-7".getBytes(StandardCharsets.UTF_8);

    /** A PREPARE as the layout without owners wrote it: kind, txId, xid, scanFrom, one settle operation. */
    private static byte[] prepareWithoutOwnerField() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(1);
            out.writeLong(42);
            out.writeInt(XID.length);
            out.write(XID);
            out.writeInt(1);
            out.writeUTF("task/jobs");
            out.writeLong(17);
            out.writeInt(1);
            out.writeByte(3);
            out.writeUTF("jobs");
            out.writeLong(5);
            out.writeLong(9);
            out.writeBoolean(false);
            out.writeLong(-1);
            out.writeBoolean(false);
        }
        return bytes.toByteArray();
    }

    @Test
    void aRecordWrittenBeforeOwnersExistedReadsWithoutOwner() throws IOException {
        TransactionRecord r = TransactionRecord.decode(prepareWithoutOwnerField());
        assertThat(r.kind()).isEqualTo(TransactionRecord.PREPARE);
        assertThat(r.txId()).isEqualTo(42);
        assertThat(r.xid()).isEqualTo(XID);
        assertThat(r.owner()).isNull();
        assertThat(r.scanFrom()).containsExactly(Map.entry("task/jobs", 17L));
        assertThat(r.ops()).containsExactly(new TxOp.Settle("jobs", new LeaseToken(5, 9), false, -1, null));
    }

    @Test
    void aRecordWithoutOwnerIsWrittenAsBefore() throws IOException {
        TransactionRecord r = new TransactionRecord(TransactionRecord.PREPARE, 42, XID, null,
                Map.of("task/jobs", 17L), List.of(new TxOp.Settle("jobs", new LeaseToken(5, 9), false, -1, null)));
        assertThat(r.encode()).isEqualTo(prepareWithoutOwnerField());
    }

    @Test
    void theOwnerRoundTripsBehindItsFlag() {
        TransactionRecord r = new TransactionRecord(TransactionRecord.PREPARE, 3, XID, "zoë",
                Map.of("log/a", 0L), List.of(new TxOp.Append("a", Entry.of("a1"))));
        byte[] encoded = r.encode();
        assertThat(encoded[0]).isEqualTo((byte) 0x41);
        TransactionRecord back = TransactionRecord.decode(encoded);
        assertThat(back.kind()).isEqualTo(TransactionRecord.PREPARE);
        assertThat(back.owner()).isEqualTo("zoë");
        assertThat(back.xid()).isEqualTo(XID);
        assertThat(back.scanFrom()).isEqualTo(r.scanFrom());
        assertThat(back.ops()).hasSize(1);
        assertThat(new String(((TxOp.Append) back.ops().get(0)).entry().payload(), StandardCharsets.UTF_8))
                .isEqualTo("a1");
    }

    /** The kind word store format 1 wrote for shared groups. */
    private static final String FORMAT_1_SHARED_GROUP = "shared";

    /** A COMMIT of a dead-letter move from a shared group, as store format 1 named the group. */
    private static byte[] format1DeadLetterCommit() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(2);
            out.writeLong(7);
            out.writeInt(-1);
            out.writeInt(1);
            out.writeUTF(FORMAT_1_SHARED_GROUP + "/events:g");
            out.writeLong(40);
            out.writeInt(1);
            out.writeByte(6);
            out.writeUTF(FORMAT_1_SHARED_GROUP + "/events:g");
            out.writeLong(3);
            out.writeLong(11);
            out.writeInt(2);
            out.writeBoolean(true);
            out.writeUTF("poison");
        }
        return bytes.toByteArray();
    }

    @Test
    void aRecordOfStoreFormat1ReadsWithTheSharedGroupsCurrentName() throws IOException {
        TransactionRecord r = TransactionRecord.decode(format1DeadLetterCommit());
        assertThat(r.scanFrom()).containsExactly(Map.entry("shared-group/events:g", 40L));
        assertThat(r.ops()).containsExactly(new TxOp.DeadLetter("shared-group/events:g", 3, 11, 2, "poison"));
        assertThat(r.ops().get(0).queue()).isEqualTo("events");
    }

    @Test
    void sharedGroupsAreWrittenUnderTheirCurrentName() throws IOException {
        TxOp settle = new TxOp.SettleShared("events", "g", new LeaseToken(3, 11), false, -1, null);
        assertThat(settle.target()).isEqualTo("shared-group/events:g");
        TransactionRecord r = new TransactionRecord(TransactionRecord.COMMIT, 7, null, null,
                Map.of(settle.target(), 40L), List.of(new TxOp.DeadLetter(settle.target(), 3, 11, 2, "poison")));
        byte[] format1 = format1DeadLetterCommit();
        byte[] current = r.encode();
        assertThat(new String(current, StandardCharsets.ISO_8859_1)).contains("shared-group/events:g")
                .doesNotContain(FORMAT_1_SHARED_GROUP + "/");
        assertThat(current).hasSize(format1.length + 2 * "-group".length());
        assertThat(TransactionRecord.decode(current)).isEqualTo(TransactionRecord.decode(format1));
    }

    @Test
    void targetsParseInEitherSpellingAndUnknownOnesAreRefused() {
        assertThat(TxTarget.parse("task/jobs")).isEqualTo(new TxTarget(TxTarget.Kind.TASK, "jobs", null));
        assertThat(TxTarget.parse("log/a")).isEqualTo(new TxTarget(TxTarget.Kind.LOG, "a", null));
        assertThat(TxTarget.parse("offsets/a:ex")).isEqualTo(new TxTarget(TxTarget.Kind.OFFSETS, "a", "ex"));
        TxTarget group = new TxTarget(TxTarget.Kind.SHARED_GROUP, "events", "g");
        assertThat(TxTarget.parse("shared-group/events:g")).isEqualTo(group);
        assertThat(TxTarget.parse(FORMAT_1_SHARED_GROUP + "/events:g")).isEqualTo(group);
        assertThat(group.name()).isEqualTo("shared-group/events:g");
        assertThatThrownBy(() -> TxTarget.parse("queue/a")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue/a");
        assertThatThrownBy(() -> TxTarget.parse("shared-group/events")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no group");
    }

    @Test
    void anOwnerFlagWithANullOwnerIsRefused() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(0x41);
            out.writeLong(1);
            out.writeInt(-1);
            out.writeInt(-1);
            out.writeInt(0);
            out.writeInt(0);
        }
        assertThatThrownBy(() -> TransactionRecord.decode(bytes.toByteArray()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("owner");
    }
}
