package io.mikyu.transport;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * Netty's native epoll transport where it loads (Linux, with {@code netty-transport-native-epoll} on the class
 * path), else NIO. Domain sockets ({@code unix://}) need epoll; without it they fail with a message saying so.
 */
public enum Transport {
    EPOLL, NIO;

    /** The best transport this process has. */
    public static Transport best() {
        return Epoll.isAvailable() ? EPOLL : NIO;
    }

    /** Why epoll did not load, or {@code null} if it did. */
    public static String epollUnavailableReason() {
        Throwable cause = Epoll.unavailabilityCause();
        return cause == null ? null : cause.toString();
    }

    public EventLoopGroup newGroup(int threads, String name) {
        DefaultThreadFactory factory = new DefaultThreadFactory(name, true);
        return this == EPOLL ? new EpollEventLoopGroup(threads, factory) : new NioEventLoopGroup(threads, factory);
    }

    public Class<? extends Channel> channelClass(Endpoint endpoint) {
        if (endpoint.isUnix()) {
            requireEpoll(endpoint);
            return EpollDomainSocketChannel.class;
        }
        return this == EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    public Class<? extends ServerChannel> serverChannelClass(Endpoint endpoint) {
        if (endpoint.isUnix()) {
            requireEpoll(endpoint);
            return EpollServerDomainSocketChannel.class;
        }
        return this == EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    private void requireEpoll(Endpoint endpoint) {
        if (this != EPOLL) {
            throw new UnsupportedOperationException(endpoint + ": unix domain sockets need Netty's native epoll"
                    + " transport (Linux x86-64, io.netty:netty-transport-native-epoll:linux-x86_64 on the class"
                    + " path)" + (epollUnavailableReason() == null ? "" : "; it did not load: "
                    + epollUnavailableReason()));
        }
    }
}
