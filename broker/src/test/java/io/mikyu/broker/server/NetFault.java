package io.mikyu.broker.server;

import io.mikyu.broker.server.FaultProxy.Direction;
import io.mikyu.broker.server.FaultProxy.Link;
import io.mikyu.broker.server.FaultProxy.Side;

import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * The network faults of the campaign, each injected into the links a {@link FaultProxy} has open, and which peers
 * must then notice by themselves (from their heartbeats) that their connection is gone.
 */
enum NetFault {
    /** Both sockets closed: both peers see the end at once. */
    DROP(false, false),
    /** Nothing gets through either way and no FIN: both peers must notice from their heartbeats. */
    BLACK_HOLE_BOTH(true, true),
    /** The client's bytes vanish: the broker hears nothing and must drop the connection (the client then sees it). */
    BLACK_HOLE_UP(false, true),
    /** The broker's bytes vanish: the client hears nothing and must drop the connection. */
    BLACK_HOLE_DOWN(true, false),
    /** The direction to the broker is closed (it reads the end), the other still flows. */
    HALF_CLOSE_UP(false, false),
    /** The direction to the client is closed (it reads the end), the other still flows. */
    HALF_CLOSE_DOWN(false, false),
    /** The client's side is gone; the broker's socket stays open and silent: the broker must notice. */
    HALF_OPEN_CLIENT_GONE(false, true),
    /** The broker's side is gone; the client's socket stays open and silent: the client must notice. */
    HALF_OPEN_BROKER_GONE(true, false),
    /** Every chunk both ways arrives late (less than a heartbeat interval). */
    DELAY(false, false),
    /** The client stops reading: what the broker writes to it backs up; the client's heartbeats give up on it. */
    STOP_READING(true, false);

    /** Whether the client, the broker, must notice the loss from its heartbeats (nothing tells it otherwise). */
    final boolean clientMustNotice;
    final boolean brokerMustNotice;

    NetFault(boolean clientMustNotice, boolean brokerMustNotice) {
        this.clientMustNotice = clientMustNotice;
        this.brokerMustNotice = brokerMustNotice;
    }

    /** Whether the fault ends the links it hits, by itself or through the peers' heartbeats. */
    boolean endsLinks() {
        return this != DELAY;
    }

    /** Injects the fault; {@code random} picks its parameters. Returns the links hit and what was done. */
    Injected inject(FaultProxy proxy, Random random) {
        return switch (this) {
            case DROP -> new Injected(proxy.drop(), "drop");
            case BLACK_HOLE_BOTH -> new Injected(proxy.blackHole(Direction.BOTH), "black hole both ways");
            case BLACK_HOLE_UP -> new Injected(proxy.blackHole(Direction.UP), "black hole to the broker");
            case BLACK_HOLE_DOWN -> new Injected(proxy.blackHole(Direction.DOWN), "black hole to the client");
            case HALF_CLOSE_UP -> new Injected(proxy.halfClose(Direction.UP), "half-close to the broker");
            case HALF_CLOSE_DOWN -> new Injected(proxy.halfClose(Direction.DOWN), "half-close to the client");
            case HALF_OPEN_CLIENT_GONE -> new Injected(proxy.halfOpen(Side.CLIENT), "half-open, client gone");
            case HALF_OPEN_BROKER_GONE -> new Injected(proxy.halfOpen(Side.BROKER), "half-open, broker gone");
            case DELAY -> {
                Duration by = Duration.ofMillis(20 + random.nextInt(200));
                yield new Injected(proxy.delay(Direction.BOTH, by), "delay " + by.toMillis() + " ms");
            }
            case STOP_READING -> new Injected(proxy.stopReading(Side.BROKER), "client stops reading");
        };
    }

    /** A fault injected at {@code atNanos} into {@code links}. */
    record Injected(List<Link> links, String what, long atNanos) {
        Injected(List<Link> links, String what) {
            this(links, what, System.nanoTime());
        }
    }
}
