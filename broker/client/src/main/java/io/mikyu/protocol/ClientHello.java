package io.mikyu.protocol;

import io.netty.buffer.ByteBuf;

/**
 * The first frame of a connection ({@link FrameDescriptor#HELLO}, request id 0):
 *
 * <pre>
 *   magic:i32 ("MKYU")  version:u16  features:i64  maxFrameBytes:i32  heartbeatMillis:i32
 *   clientName:string  user:string  password:bytes
 * </pre>
 *
 * {@code version} is the highest the client speaks; {@code features} the optional capabilities it has (none are
 * defined in version 1); {@code maxFrameBytes} the largest frame it accepts. {@code user} and {@code password}
 * (UTF-8) are the credentials a broker with users checks before it answers; null without any.
 */
public record ClientHello(int version, long features, int maxFrameBytes, int heartbeatMillis, String clientName,
                          String user, byte[] password) {

    public static final int MAGIC = 0x4D4B5955;

    public void write(ByteBuf buf) {
        buf.writeInt(MAGIC).writeShort(version).writeLong(features).writeInt(maxFrameBytes).writeInt(heartbeatMillis);
        Fields.writeString(buf, clientName);
        Fields.writeString(buf, user);
        Fields.writeBytes(buf, password);
    }

    public static ClientHello read(ByteBuf buf) {
        int magic = Fields.readInt(buf);
        if (magic != MAGIC) {
            throw new MalformedFrameException("not a mikyu client: the connection must start with magic MKYU");
        }
        ClientHello hello = new ClientHello(Fields.readU16(buf), Fields.readLong(buf), Fields.readInt(buf),
                Fields.readInt(buf), Fields.readString(buf), Fields.readString(buf), Fields.readBytes(buf));
        Fields.expectEnd(buf);
        if (hello.maxFrameBytes < Protocol.MIN_FRAME_BYTES || hello.heartbeatMillis < 0) {
            throw new MalformedFrameException("hello asks for frames of " + hello.maxFrameBytes
                    + " bytes (at least " + Protocol.MIN_FRAME_BYTES + ") and a heartbeat of "
                    + hello.heartbeatMillis + " ms");
        }
        return hello;
    }
}
