package io.mikyu.jms.classic;

import java.util.function.Consumer;

/** Lets tests outside the provider's package run code where the provider is about to delete an idle subscription. */
public final class SubscriptionDeletionHook {

    private SubscriptionDeletionHook() {
    }

    /** {@code action} gets the group's name each time; {@code null} puts back the default (nothing). */
    public static void set(Consumer<String> action) {
        Subscriptions.beforeDelete = action == null ? group -> { } : action;
    }
}
