package io.mikyu.broker.server;

import io.mikyu.engine.FilterExpression;
import io.mikyu.engine.Mikyu;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.StreamDescriptor;
import io.mikyu.protocol.Values;
import io.netty.buffer.ByteBuf;

import java.time.Duration;

import static io.mikyu.broker.server.Request.now;
import static io.mikyu.protocol.Fields.readMillis;
import static io.mikyu.protocol.Fields.readString;

/** Opening and closing a connection's consumer streams ({@link ConnectionStreams}). */
final class StreamRequests {

    private StreamRequests() {
    }

    static Request decode(Op op, ByteBuf in, ConnectionState state) {
        Mikyu m = state.mikyu();
        return switch (op) {
            case STREAM_TASKS -> {
                ConnectionStreams streams = state.streams();
                String queue = readString(in);
                int stream = StreamDescriptor.readStreamId(in);
                Duration lease = readMillis(in);
                FilterExpression filter = Values.readFilter(in);
                int credit = StreamDescriptor.readCredit(in);
                long creditBytes = StreamDescriptor.readCreditBytes(in);
                yield now(r -> {
                    streams.openTasks(stream, m.taskQueue(queue), lease, state.filter(filter), credit,
                            creditBytes);
                    r.afterSent(() -> streams.start(stream));
                });
            }
            case STREAM_SHARED -> {
                ConnectionStreams streams = state.streams();
                String queue = readString(in);
                String group = readString(in);
                int stream = StreamDescriptor.readStreamId(in);
                Duration lease = readMillis(in);
                int credit = StreamDescriptor.readCredit(in);
                long creditBytes = StreamDescriptor.readCreditBytes(in);
                yield now(r -> {
                    streams.openShared(stream, state.sharedGroup(queue, group), lease, credit, creditBytes);
                    r.afterSent(() -> streams.start(stream));
                });
            }
            case STREAM_CLOSE -> {
                ConnectionStreams streams = state.streams();
                int stream = StreamDescriptor.readStreamId(in);
                yield now(r -> streams.close(stream));
            }
            default -> throw new IllegalArgumentException(op + " is not a request on streams");
        };
    }
}
