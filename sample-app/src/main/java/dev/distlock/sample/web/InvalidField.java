package dev.distlock.sample.web;

/**
 * One wrong field of a request, as listed in the {@code errors} of a {@code 400} problem.
 *
 * @param field the field or parameter name, for example {@code "phone"}
 * @param message what is wrong with it, for example {@code "must not be blank"}
 */
public record InvalidField(String field, String message) {

}
