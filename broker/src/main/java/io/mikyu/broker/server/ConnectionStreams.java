package io.mikyu.broker.server;

import io.mikyu.engine.GroupMember;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.spi.AsyncDequeue;
import io.mikyu.protocol.StreamDescriptor;
import io.mikyu.protocol.Values;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/** The consumer streams of one connection, by the ids the client chose. */
final class ConnectionStreams {

    private final BrokerServer server;
    private final Channel channel;
    private final int maxFrameBytes;
    private final ConcurrentHashMap<Integer, PushStream<?>> streams = new ConcurrentHashMap<>();

    ConnectionStreams(BrokerServer server, Channel channel, int maxFrameBytes) {
        this.server = server;
        this.channel = channel;
        this.maxFrameBytes = maxFrameBytes;
    }

    /** Each task stream is a message-group member of its own, closed with the stream. */
    void openTasks(int id, TaskQueue queue, Duration lease, TaskFilter userFilter, int credit, long creditBytes) {
        checkLease(lease);
        GroupMember member = new GroupMember("stream " + id + " of " + channel.remoteAddress());
        TaskFilter filter = member.take(userFilter);
        open(id, "task queue '" + queue.name() + "'", new PushSource<LeasedTask>() {
            @Override
            public List<LeasedTask> take(int max, Duration l, Duration wait) throws InterruptedException {
                return queue.dequeue(max, l, wait, filter);
            }

            @Override
            public LeaseToken token(LeasedTask item) {
                return item.token();
            }

            @Override
            public long leaseExpiresAt(LeasedTask item) {
                return item.leaseExpiresAt();
            }

            @Override
            public void write(ByteBuf buf, LeasedTask item) {
                Values.writeLeasedTask(buf, item);
            }

            @Override
            public void returnUndelivered(List<LeaseToken> tokens) {
                queue.returnUndelivered(tokens);
            }

            @Override
            public long[] extend(List<LeaseToken> tokens, Duration l) {
                return queue.extend(tokens, l);
            }

            @Override
            public boolean pushAlone(LeasedTask item) {
                return item.previousLeaseRanOut();
            }

            @Override
            public boolean holds(LeaseToken token) {
                return queue.holds(token);
            }

            @Override
            public boolean takesAsync() {
                return queue instanceof AsyncDequeue;
            }

            @Override
            public AsyncDequeue.Start tryTake(int max, Duration l, Executor continuation,
                                              Consumer<List<LeasedTask>> taken, Consumer<RuntimeException> failed,
                                              Runnable whenReady) {
                return ((AsyncDequeue) queue).tryDequeueAsync(max, l, filter, continuation,
                        new AsyncDequeue.Completion() {
                            @Override
                            public void completed(List<LeasedTask> tasks) {
                                taken.accept(tasks);
                            }

                            @Override
                            public void failed(RuntimeException failure) {
                                failed.accept(failure);
                            }
                        }, whenReady);
            }

            @Override
            public void cancelWhenReady(Runnable whenReady) {
                if (queue instanceof AsyncDequeue a) {
                    a.cancelWhenReady(whenReady);
                }
            }
        }, lease, credit, creditBytes, member::close);
    }

    void openShared(int id, SharedGroup group, Duration lease, int credit, long creditBytes) {
        checkLease(lease);
        open(id, "shared group '" + group.name() + "' of '" + group.queue() + "'",
                new PushSource<SharedGroup.Delivery>() {
                    @Override
                    public List<SharedGroup.Delivery> take(int max, Duration l, Duration wait)
                            throws InterruptedException {
                        return group.fetch(max, l, wait);
                    }

                    @Override
                    public LeaseToken token(SharedGroup.Delivery item) {
                        return item.token();
                    }

                    @Override
                    public long leaseExpiresAt(SharedGroup.Delivery item) {
                        return item.leaseExpiresAt();
                    }

                    @Override
                    public void write(ByteBuf buf, SharedGroup.Delivery item) {
                        Values.writeDelivery(buf, item);
                    }

                    @Override
                    public void returnUndelivered(List<LeaseToken> tokens) {
                        group.returnUndelivered(tokens);
                    }

                    @Override
                    public long[] extend(List<LeaseToken> tokens, Duration l) {
                        return group.extend(tokens, l);
                    }

                    @Override
                    public boolean pushAlone(SharedGroup.Delivery item) {
                        return item.previousLeaseRanOut();
                    }

                    @Override
                    public boolean holds(LeaseToken token) {
                        return group.holds(token);
                    }
                }, lease, credit, creditBytes);
    }

    private static void checkLease(Duration lease) {
        if (lease == null || lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("lease must be positive: " + lease);
        }
    }

    private <T> void open(int id, String what, PushSource<T> source, Duration lease, int credit,
                          long creditBytes) {
        open(id, what, source, lease, credit, creditBytes, () -> { });
    }

    private <T> void open(int id, String what, PushSource<T> source, Duration lease, int credit,
                          long creditBytes, Runnable closed) {
        if (streams.size() >= StreamDescriptor.MAX_STREAMS_PER_CONNECTION) {
            throw new IllegalStateException("this connection has " + streams.size() + " streams open, the most"
                    + " allowed; close some first");
        }
        PushStream<?>[] self = new PushStream<?>[1];
        PushStream<T> stream = new PushStream<>(id, what, server, channel, maxFrameBytes, source, lease, credit,
                creditBytes, () -> {
                    streams.remove(id, self[0]);
                    server.streamClosed(self[0]);
                    closed.run();
                });
        self[0] = stream;
        // Known to the server first: once in the map, the connection closing may close (and forget) it at once.
        server.streamOpened(stream);
        if (streams.putIfAbsent(id, stream) != null) {
            server.streamClosed(stream);
            throw new IllegalStateException("stream " + id + " is already open on this connection");
        }
        if (!channel.isActive()) {
            stream.close();
        }
    }

    /** Starts the stream's pushing: after its open was answered, so the answer comes before its deliveries. */
    void start(int id) {
        PushStream<?> s = streams.get(id);
        if (s != null) {
            s.kick();
        }
    }

    /** A CREDIT frame, on the event loop. A stream the broker already ended is ignored. */
    void credit(int id, int messages) {
        PushStream<?> s = streams.get(id);
        if (s != null) {
            s.credit(messages);
        }
    }

    /** STREAM_CLOSE, on a worker: an unknown id is fine (the broker may have ended it already). */
    void close(int id) {
        PushStream<?> s = streams.get(id);
        if (s != null) {
            s.close();
        }
    }

    /** The connection turned writable again: every stream may push. */
    void writable() {
        for (PushStream<?> s : streams.values()) {
            s.kick();
        }
    }

    /**
     * The connection is gone: every stream keeps its outstanding items leased (their CREDITs may have been lost with
     * the connection; see {@link OutstandingOnClose#KEEP_LEASED}), on a worker.
     */
    void closeAll() {
        if (streams.isEmpty()) {
            return;
        }
        List<PushStream<?>> all = List.copyOf(streams.values());
        OutstandingOnClose outstanding = OutstandingOnClose.KEEP_LEASED;
        Runnable closing = () -> all.forEach(s -> s.close(outstanding));
        try {
            server.workers().execute(closing);
        } catch (RejectedExecutionException e) {
            closing.run();   // the broker is stopping: its workers are gone, the store is still open
        }
    }

    int size() {
        return streams.size();
    }
}
