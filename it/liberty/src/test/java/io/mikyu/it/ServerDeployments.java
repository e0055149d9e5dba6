package io.mikyu.it;

/** In Liberty the adapter is no deployment: server.xml installs it (resourceAdapter) before any application. */
public abstract class ServerDeployments {
}
