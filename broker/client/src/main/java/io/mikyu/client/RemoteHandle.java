package io.mikyu.client;

import io.mikyu.protocol.Op;
import io.netty.buffer.ByteBuf;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A handle on something a broker holds (a queue, a group), named in every request about it: each request of the
 * handle starts with its names ({@link #writeNames}), then its own arguments. Failures arrive as the engine's own
 * exception types ({@link BrokerChannel}).
 */
abstract class RemoteHandle {

    final BrokerChannel channel;
    private final String name;

    RemoteHandle(BrokerChannel channel, String name) {
        this.channel = channel;
        this.name = name;
    }

    /** Writes what names the object at the start of a request: a queue's name, or a queue's and a group's. */
    abstract void writeNames(ByteBuf b);

    public String name() {
        return name;
    }

    /** A request of the names alone. */
    <T> T call(Op op, Function<ByteBuf, T> result) {
        return channel.call(op, this::writeNames, result);
    }

    /** A request of the names, then {@code args}. */
    <T> T call(Op op, Consumer<ByteBuf> args, Function<ByteBuf, T> result) {
        return channel.call(op, named(args), result);
    }

    /** A request of the names, then {@code args}, whose result is a list. */
    <T> List<T> callList(Op op, Consumer<ByteBuf> args, Function<ByteBuf, T> item,
                         int minItemBytes) {
        return channel.callList(op, named(args), item, minItemBytes);
    }

    /** As {@link #callList(Op, Consumer, Function, int)} for a request that may wait. */
    <T> List<T> callList(Op op, Consumer<ByteBuf> args, Function<ByteBuf, T> item,
                         int minItemBytes, Duration wait) throws InterruptedException {
        return channel.callList(op, named(args), item, minItemBytes, wait);
    }

    /** The arguments {@code args} after the names. */
    Consumer<ByteBuf> named(Consumer<ByteBuf> args) {
        return b -> {
            writeNames(b);
            args.accept(b);
        };
    }
}
