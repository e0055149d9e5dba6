package io.mikyu.protocol;

import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.Task;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ValuesTest {

    @Test
    void anEntryReadsBackAsWritten() {
        Entry entry = new Entry("k".getBytes(), Headers.of("a", "1", "a", "2"), null, 42);
        ByteBuf buf = Unpooled.buffer();
        Values.writeEntry(buf, entry);
        Entry read = Values.readEntry(buf);
        assertThat(read.key()).isEqualTo("k".getBytes());
        assertThat(read.headers()).isEqualTo(entry.headers());
        assertThat(read.isTombstone()).isTrue();
        assertThat(read.timestamp()).isEqualTo(42);
        assertThat(buf.isReadable()).isFalse();
    }

    @Test
    void aLeasedTaskReadsBackAsWrittenWithOrWithoutItsToken() {
        for (LeaseToken token : new LeaseToken[] {new LeaseToken(3, 9), null}) {
            LeasedTask task = new LeasedTask(3, token, 2, 7, 100, 0, 200, Headers.of("h", "v"), "p".getBytes());
            ByteBuf buf = Unpooled.buffer();
            Values.writeLeasedTask(buf, task);
            LeasedTask read = Values.readLeasedTask(buf);
            assertThat(read).usingRecursiveComparison().isEqualTo(task);
        }
    }

    @Test
    void configsAndDurationsReadBackAsWritten() {
        SharedGroupConfig config = SharedGroupConfig.defaults().withMaxInFlight(5)
                .withAttributes(Map.of("selector", "x = 1"));
        ByteBuf buf = Unpooled.buffer();
        Values.writeSharedConfig(buf, config);
        Fields.writeMillis(buf, null);
        Fields.writeMillis(buf, Duration.ofMillis(-5));
        assertThat(Values.readSharedConfig(buf)).isEqualTo(config);
        assertThat(Fields.readMillis(buf)).isNull();
        assertThat(Fields.readMillis(buf)).isEqualTo(Duration.ofMillis(-5));
    }

    @Test
    void aLengthBeyondTheFrameIsMalformed() {
        ByteBuf buf = Unpooled.buffer().writeInt(100).writeBytes(new byte[10]);
        assertThatThrownBy(() -> Fields.readBytes(buf)).isInstanceOf(MalformedFrameException.class)
                .hasMessageContaining("does not fit");
    }

    @Test
    void aCountTheFrameCannotHoldIsMalformedBeforeAnythingIsAllocated() {
        ByteBuf buf = Unpooled.buffer().writeInt(Integer.MAX_VALUE);
        assertThatThrownBy(() -> Values.readTasks(buf)).isInstanceOf(MalformedFrameException.class);
    }

    @Test
    void aTruncatedFieldIsMalformed() {
        ByteBuf buf = Unpooled.buffer().writeInt(1);
        assertThatThrownBy(() -> Fields.readLong(buf)).isInstanceOf(MalformedFrameException.class)
                .hasMessageContaining("early");
    }

    @Test
    void aTaskTheEngineRefusesIsAnArgumentErrorNotAMalformedFrame() {
        ByteBuf buf = Unpooled.buffer();
        Values.writeTasks(buf, List.of(Task.of("x")));
        buf.setByte(buf.writerIndex() - 17, 12); // priority
        assertThatThrownBy(() -> Values.readTasks(buf)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("priority");
    }

    @Test
    void everyEngineExceptionTypeHasItsOwnCodeAndComesBackAsThatType() {
        for (RuntimeException e : List.<RuntimeException>of(new io.mikyu.engine.QueueNotFoundException("q"),
                new io.mikyu.engine.StaleLeaseException("s"), new io.mikyu.engine.StoreClosedException("c"),
                new IllegalArgumentException("a"), new IllegalStateException("b"))) {
            ErrorCode code = ErrorCode.of(e);
            assertThat(ErrorCode.of(code.code())).isEqualTo(code);
            assertThat(code.toException(e.getMessage())).isExactlyInstanceOf(e.getClass())
                    .hasMessage(e.getMessage());
        }
        assertThat(ErrorCode.of(999)).isEqualTo(ErrorCode.GENERIC);
    }
}
