package io.mikyu.jca.testkit;

import javax.naming.Context;
import javax.naming.NameNotFoundException;
import javax.naming.spi.InitialContextFactory;
import java.lang.reflect.Proxy;
import java.util.Hashtable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A server's JNDI, as far as lookups go: names bound in {@link #BINDINGS}. */
public final class MapContextFactory implements InitialContextFactory {

    public static final Map<String, Object> BINDINGS = new ConcurrentHashMap<>();

    @Override
    public Context getInitialContext(Hashtable<?, ?> environment) {
        return (Context) Proxy.newProxyInstance(Context.class.getClassLoader(), new Class<?>[] {Context.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "lookup" -> {
                        Object o = BINDINGS.get(String.valueOf(args[0]));
                        if (o == null) {
                            throw new NameNotFoundException(args[0] + " is not bound");
                        }
                        yield o;
                    }
                    case "close" -> null;
                    case "toString" -> "MapContext";
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
