package dev.distlock.web;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.distlock.web.LockedWebApplication.LockedWork;

/**
 * Runs locked work for requests: {@code POST /stock/{sku}} and {@code POST
 * /reports/{id}}.
 */
@RestController
class LockedController {

	private final LockedWork work;

	LockedController(LockedWork work) {
		this.work = work;
	}

	@PostMapping("/stock/{sku}")
	void stock(@PathVariable String sku) {
		this.work.stock(sku);
	}

	@PostMapping("/orders/{sku}")
	void order(@PathVariable String sku) {
		try {
			this.work.stock(sku);
		}
		catch (RuntimeException ex) {
			// The application's own failure, caused by a lock failure after other work.
			throw new IllegalStateException("Order of " + sku + " failed", ex);
		}
	}

	@PostMapping("/reports/{id}")
	void report(@PathVariable String id) {
		this.work.report(id);
	}

}
