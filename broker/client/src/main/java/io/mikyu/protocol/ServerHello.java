package io.mikyu.protocol;

import io.netty.buffer.ByteBuf;

/**
 * The broker's answer to {@link ClientHello} ({@link FrameDescriptor#HELLO_OK}, request id 0):
 *
 * <pre>
 *   version:u16  features:i64  maxFrameBytes:i32  heartbeatMillis:i32  serverName:string  [storeId:string]
 * </pre>
 *
 * {@code version} is the one both speak from now on; {@code features} the capabilities both have; {@code
 * maxFrameBytes} the smaller of the two sides' limits, which neither side exceeds from now on; {@code
 * heartbeatMillis} the interval after which an idle side sends a {@link FrameDescriptor#PING} (a side that hears
 * nothing for three intervals closes the connection). {@code storeId}, the served store's
 * {@link io.mikyu.engine.Mikyu#storeId()}, is there only when {@code features} has {@link Protocol#FEATURE_XA}
 * (a client that does not know the feature never gets the field); {@code null} otherwise.
 */
public record ServerHello(int version, long features, int maxFrameBytes, int heartbeatMillis, String serverName,
                          String storeId) {

    public void write(ByteBuf buf) {
        buf.writeShort(version).writeLong(features).writeInt(maxFrameBytes).writeInt(heartbeatMillis);
        Fields.writeString(buf, serverName);
        if ((features & Protocol.FEATURE_XA) != 0) {
            Fields.writeString(buf, storeId);
        }
    }

    public static ServerHello read(ByteBuf buf) {
        int version = Fields.readU16(buf);
        long features = Fields.readLong(buf);
        int maxFrameBytes = Fields.readInt(buf);
        int heartbeatMillis = Fields.readInt(buf);
        String serverName = Fields.readString(buf);
        String storeId = (features & Protocol.FEATURE_XA) != 0 ? Fields.readRequiredString(buf, "storeId") : null;
        ServerHello hello = new ServerHello(version, features, maxFrameBytes, heartbeatMillis, serverName, storeId);
        Fields.expectEnd(buf);
        if (hello.maxFrameBytes < Protocol.MIN_FRAME_BYTES || hello.heartbeatMillis <= 0) {
            throw new MalformedFrameException("broker offers frames of " + hello.maxFrameBytes
                    + " bytes and a heartbeat of " + hello.heartbeatMillis + " ms");
        }
        return hello;
    }
}
