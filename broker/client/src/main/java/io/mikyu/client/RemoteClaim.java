package io.mikyu.client;

import io.mikyu.engine.Claim;
import io.mikyu.engine.ClaimMode;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Values;
import io.netty.buffer.ByteBuf;

/**
 * A claim held on a broker by this channel. The broker releases it when the connection ends; after a
 * reconnect the client takes it again ({@link ChannelReplay}), and if someone else took the name meanwhile the
 * claim is lost: its release then does nothing on the broker.
 */
final class RemoteClaim implements Claim {

    private final BrokerChannel channel;
    private final String name;
    private final ClaimMode mode;
    private volatile boolean released;

    RemoteClaim(BrokerChannel channel, String name, ClaimMode mode) {
        this.channel = channel;
        this.name = name;
        this.mode = mode;
    }

    /** {@code name:string mode:u8}: the arguments of CLAIM and RELEASE_CLAIM. */
    void writeArgs(ByteBuf b) {
        Fields.writeString(b, name);
        Values.writeClaimMode(b, mode);
    }

    void lost() {
        released = true;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ClaimMode mode() {
        return mode;
    }

    /** {@code name:string mode:u8} → {@code holders:i32}. */
    @Override
    public int release() {
        if (released) {
            return channel.isOpen() ? channel.call(Op.CLAIM_HOLDERS, b -> Fields.writeString(b, name),
                    Fields::readInt) : 0;
        }
        released = true;
        channel.replay().released(this);
        if (!channel.isOpen()) {
            return 0; // the broker released it with the connection
        }
        return channel.call(Op.RELEASE_CLAIM, this::writeArgs, Fields::readInt);
    }

    @Override
    public String toString() {
        return "RemoteClaim[" + name + ", " + mode + "]";
    }
}
