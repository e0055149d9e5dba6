package io.mikyu.jca.settings;

import jakarta.resource.spi.ResourceAdapter;

/**
 * The resource adapter a pool or an activation spec belongs to, as they see it: the layer of settings under
 * theirs, and the register of the physical connections it closes on {@code stop}. They take it through
 * {@code setResourceAdapter}; naming this and not the adapter's class keeps the adapter, which starts the inbound
 * side, above both sides.
 */
public interface OwningAdapter extends ResourceAdapter, SettingsLayer {

    /** The physical connections of the adapter's pools, closed on {@code stop}. */
    OpenConnections connections();
}
