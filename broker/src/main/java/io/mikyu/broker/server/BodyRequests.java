package io.mikyu.broker.server;

import io.mikyu.protocol.BodyDescriptor;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.Op;
import io.netty.buffer.ByteBuf;

import static io.mikyu.broker.server.Request.now;

/**
 * Large bodies in chunks ({@link BodyDescriptor}): uploads and reads, each chunk a request of its own so that one
 * body never holds the connection. Uploading takes the produce permission on the queue named in BODY_OPEN, reading
 * the consume permission on the queue named in BODY_READ ({@link Authorization}).
 */
final class BodyRequests {

    private BodyRequests() {
    }

    static Request decode(Op op, ByteBuf in, ConnectionState state) {
        ConnectionBodies bodies = state.bodies();
        return switch (op) {
            case BODY_OPEN -> {
                String queue = Fields.readRequiredString(in, "queue");
                yield now(r -> {
                    int upload = bodies.open(queue);
                    r.body().writeInt(upload);
                    Fields.writeString(r.body(), bodies.id(upload));
                    r.body().writeInt(BodyDescriptor.WINDOW);
                });
            }
            case BODY_CHUNK -> {
                int upload = Fields.readInt(in);
                long offset = Fields.readLong(in);
                byte[] bytes = Fields.readRequiredBytes(in, "chunk");
                // queued here, on the event loop, so that the chunks keep the order they came in
                ConnectionBodies.Upload u = bodies.chunk(upload, offset, bytes);
                yield now(r -> u.drain());
            }
            case BODY_PUBLISH -> {
                int upload = Fields.readInt(in);
                long length = Fields.readLong(in);
                yield now(r -> bodies.publish(upload, length));
            }
            case BODY_CLOSE -> {
                int upload = Fields.readInt(in);
                yield now(r -> bodies.close(upload));
            }
            case BODY_READ -> {
                String queue = Fields.readRequiredString(in, "queue");
                String id = Fields.readRequiredString(in, "body id");
                long offset = Fields.readLong(in);
                int max = Fields.readInt(in);
                yield now(r -> Fields.writeBytes(r.body(), bodies.read(queue, id, offset, max)));
            }
            default -> throw new IllegalArgumentException(op + " is not a request on large bodies");
        };
    }
}
