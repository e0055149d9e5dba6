package io.mikyu.protocol;

import io.netty.buffer.ByteBuf;

/**
 * The broker's answer to {@link ClientHello} ({@link FrameDescriptor#HELLO_OK}, request id 0):
 *
 * <pre>
 *   version:u16  features:i64  maxFrameBytes:i32  heartbeatMillis:i32  serverName:string
 * </pre>
 *
 * {@code version} is the one both speak from now on; {@code features} the capabilities both have; {@code
 * maxFrameBytes} the smaller of the two sides' limits, which neither side exceeds from now on; {@code
 * heartbeatMillis} the interval after which an idle side sends a {@link FrameDescriptor#PING} (a side that hears
 * nothing for three intervals closes the connection).
 */
public record ServerHello(int version, long features, int maxFrameBytes, int heartbeatMillis, String serverName) {

    public void write(ByteBuf buf) {
        buf.writeShort(version).writeLong(features).writeInt(maxFrameBytes).writeInt(heartbeatMillis);
        Fields.writeString(buf, serverName);
    }

    public static ServerHello read(ByteBuf buf) {
        ServerHello hello = new ServerHello(Fields.readU16(buf), Fields.readLong(buf), Fields.readInt(buf),
                Fields.readInt(buf), Fields.readString(buf));
        Fields.expectEnd(buf);
        if (hello.maxFrameBytes < Protocol.MIN_FRAME_BYTES || hello.heartbeatMillis <= 0) {
            throw new MalformedFrameException("broker offers frames of " + hello.maxFrameBytes
                    + " bytes and a heartbeat of " + hello.heartbeatMillis + " ms");
        }
        return hello;
    }
}
