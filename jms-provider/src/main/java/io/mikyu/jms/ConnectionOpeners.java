package io.mikyu.jms;

import java.util.Iterator;
import java.util.ServiceLoader;

/** Finds the {@link ConnectionOpener} registered in this jar, once. */
final class ConnectionOpeners {

    private static volatile ConnectionOpener found;

    private ConnectionOpeners() {
    }

    /** @throws IllegalStateException if none is registered */
    static ConnectionOpener get() {
        ConnectionOpener opener = found;
        if (opener == null) {
            opener = load(); // two threads may both look: they find the same one
            found = opener;
        }
        return opener;
    }

    private static ConnectionOpener load() {
        // This jar's class loader, not the thread's: an application server sets that to the application's.
        Iterator<ConnectionOpener> it =
                ServiceLoader.load(ConnectionOpener.class, ConnectionOpener.class.getClassLoader()).iterator();
        if (!it.hasNext()) {
            throw new IllegalStateException("no " + ConnectionOpener.class.getName() + " registered in "
                    + "META-INF/services: the io.mikyu:mikyu-jms jar was repackaged without its service files");
        }
        return it.next();
    }
}
