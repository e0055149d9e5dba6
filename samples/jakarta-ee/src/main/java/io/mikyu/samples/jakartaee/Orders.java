package io.mikyu.samples.jakartaee;

/**
 * The names the sample's parts share. The queue goes by its mikyu name, so that the application needs nothing
 * from the server but the pooled connection factory; an administrator's queue object (mikyu's
 * {@code io.mikyu.jca.admin.AdminQueue}) would do as well, through {@code @Resource(lookup = ...)} and the bean's
 * {@code destinationLookup}.
 */
public final class Orders {

    /** The pooled connection factory: the one the adapter's archive defines, or an administrator's of that name. */
    public static final String CONNECTION_FACTORY = "java:/jms/mikyu/ConnectionFactory";
    /** The mikyu queue (made when first used). */
    public static final String QUEUE = "sample.orders";

    private Orders() {
    }
}
