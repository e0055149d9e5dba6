package io.mikyu.jca.settings;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The physical connections the adapter's pools opened and have not destroyed: the adapter's {@code stop()} closes
 * whatever the server did not, so an undeployed adapter leaves no connection, thread or store open behind it.
 */
public final class OpenConnections {

    private static final Logger LOG = LoggerFactory.getLogger(OpenConnections.class);

    private final Set<AutoCloseable> open = ConcurrentHashMap.newKeySet();

    public void add(AutoCloseable connection) {
        open.add(connection);
    }

    public void remove(AutoCloseable connection) {
        open.remove(connection);
    }

    public int size() {
        return open.size();
    }

    public void closeAll() {
        List<AutoCloseable> all = new ArrayList<>(open);
        open.clear();
        for (AutoCloseable c : all) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.warn("closing {} failed", c, e);
            }
        }
    }
}
