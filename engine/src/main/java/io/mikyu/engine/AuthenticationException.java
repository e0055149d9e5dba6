package io.mikyu.engine;

/**
 * The credentials were refused: an unknown user, a wrong password, or none where authentication is on. The message
 * says which of these without telling a stranger whether the user exists.
 */
public class AuthenticationException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public AuthenticationException(String message) {
        super(message);
    }
}
