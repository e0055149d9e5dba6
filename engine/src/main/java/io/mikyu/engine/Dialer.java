package io.mikyu.engine;

import java.net.URI;
import java.util.Map;

/**
 * Connects to a store served elsewhere: what {@link Mikyu#dial(String)} looks for with {@link java.util.ServiceLoader}.
 * The engine knows no network; the {@code io.mikyu:mikyu-client} artifact registers the dialer for
 * {@code tcp://host:port} and {@code unix:///path} in {@code META-INF/services/io.mikyu.engine.Dialer} (and
 * {@code provides io.mikyu.engine.Dialer} in its module descriptor).
 */
public interface Dialer {

    /** Whether this dialer handles the URI's scheme. */
    boolean supports(URI uri);

    /**
     * Connects and returns the store behind {@code uri}. Options come from the URI's query and from
     * {@code options}, which wins where both name an option.
     */
    Mikyu dial(URI uri, Map<String, String> options);
}
