package io.mikyu.client;

import io.mikyu.engine.Dialer;
import io.mikyu.engine.Mikyu;
import io.mikyu.transport.Endpoint;

import java.net.URI;
import java.util.Map;

/** Dials brokers at {@code tcp://host:port} and {@code unix:///path}: registered for {@link Mikyu#dial(String)}. */
public final class RemoteDialer implements Dialer {

    @Override
    public boolean supports(URI uri) {
        return Endpoint.supports(uri);
    }

    @Override
    public Mikyu dial(URI uri, Map<String, String> options) {
        URI withoutQuery = URI.create(uri.getScheme() + "://" + (uri.getRawAuthority() == null ? ""
                : uri.getRawAuthority()) + (uri.getRawPath() == null ? "" : uri.getRawPath()));
        return RemoteMikyu.connect(new Endpoint(withoutQuery), ClientOptions.from(uri, options));
    }
}
