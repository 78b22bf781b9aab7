/* lprojd-c-demo: a terminal app on the C localizer, for the demo bundle.
 *
 *   make -C Examples/CDemo && Examples/CDemo/build/lprojd-c-demo [--socket PATH] [--client ID]
 *
 * It prints what a window would show, as one JSON line at start and again
 * on every `changed` signal (a language chosen here or by another process,
 * an edited table, lprojd found again after losing it), and takes commands
 * on standard input: `select LOCALE`, `reset`, `quit`; the end of input
 * quits too. Lookups come from the mirror; the plural count is formatted by
 * lprojd (the C library asks the daemon for formats), asynchronously, as
 * is everything that waits for lprojd: the main loop never blocks. The
 * tests drive it (clients/python/tests/test_example_apps.py). */
#include <glib-unix.h>
#include <json-glib/json-glib.h>
#include <lprojd/lprojd.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  LprojdLocalizer *localizer;
  GMainLoop *loop;
  GString *input;
  int renders;
  gboolean quitting;
  guint pending; /* calls to lprojd not finished yet: quitting waits for them */
  int status;
} Demo;

/* Quits once asked to and every call made before has finished, as the
 * commands typed before `quit` expect. */
static void quit_when_done(Demo *demo) {
  if (demo->quitting && demo->pending == 0) g_main_loop_quit(demo->loop);
}

static void write_record(JsonBuilder *builder) {
  g_autoptr(JsonNode) root = json_builder_get_root(builder);
  g_autofree char *text = json_to_string(root, FALSE);
  printf("%s\n", text);
  fflush(stdout);
}

static void report(const char *message) {
  g_autoptr(JsonBuilder) builder = json_builder_new();
  json_builder_begin_object(builder);
  json_builder_set_member_name(builder, "event");
  json_builder_add_string_value(builder, "error");
  json_builder_set_member_name(builder, "message");
  json_builder_add_string_value(builder, message);
  json_builder_end_object(builder);
  write_record(builder);
}

static void add_label(JsonBuilder *builder, const char *name, const char *text) {
  json_builder_set_member_name(builder, name);
  json_builder_add_string_value(builder, text);
}

/* A render in progress: the labels read from the mirror now, the plural
 * count once lprojd has formatted it. */
typedef struct {
  Demo *demo;
  LprojdChange reasons;
  JsonBuilder *builder;
} Render;

static void add_reasons(JsonBuilder *builder, LprojdChange reasons) {
  json_builder_set_member_name(builder, "reasons");
  json_builder_begin_array(builder);
  GFlagsClass *flags = g_type_class_ref(LPROJD_TYPE_CHANGE);
  for (guint i = 0; i < flags->n_values; i++) {
    if (reasons & flags->values[i].value) json_builder_add_string_value(builder, flags->values[i].value_nick);
  }
  g_type_class_unref(flags);
  json_builder_end_array(builder);
}

static void on_files_formatted(GObject *source, GAsyncResult *result, gpointer data) {
  Render *render = data;
  g_autoptr(GError) error = NULL;
  g_autofree char *files = lprojd_localizer_format_finish(LPROJD_LOCALIZER(source), result, &error);
  if (files == NULL) files = g_strdup_printf("(%s)", error->message);
  add_label(render->builder, "files", files);
  json_builder_end_object(render->builder);
  json_builder_end_object(render->builder);
  write_record(render->builder);
  g_object_unref(render->builder);
  render->demo->pending--;
  quit_when_done(render->demo);
  g_free(render);
}

static void render(Demo *demo, LprojdChange reasons) {
  LprojdLocalizer *l = demo->localizer;
  g_autoptr(GHashTable) placeholders = g_hash_table_new(g_str_hash, g_str_equal);
  g_hash_table_insert(placeholders, "name", "Ada");
  g_autofree char *greeting = lprojd_localizer_lookup_with_placeholders(l, "greeting", NULL, NULL, placeholders);

  JsonBuilder *builder = json_builder_new();
  json_builder_begin_object(builder);
  json_builder_set_member_name(builder, "event");
  json_builder_add_string_value(builder, "render");
  json_builder_set_member_name(builder, "render");
  json_builder_add_int_value(builder, demo->renders++);
  add_reasons(builder, reasons);
  json_builder_set_member_name(builder, "locale");
  const char *locale = lprojd_localizer_get_locale(l);
  if (locale != NULL) json_builder_add_string_value(builder, locale);
  else json_builder_add_null_value(builder);
  json_builder_set_member_name(builder, "connected");
  json_builder_add_boolean_value(builder, lprojd_localizer_get_connected(l));
  json_builder_set_member_name(builder, "labels");
  json_builder_begin_object(builder);
  add_label(builder, "title", lprojd_localizer_lookup(l, "welcome.title", NULL, NULL));
  add_label(builder, "greeting", greeting);
  add_label(builder, "settings", lprojd_localizer_lookup(l, "settings.title", NULL, NULL));
  add_label(builder, "menu.file", lprojd_localizer_lookup(l, "menu.file", "Menu", NULL));

  /* The plural count is lprojd's: the line is printed once it is formatted. */
  Render *pending = g_new0(Render, 1);
  *pending = (Render){demo, reasons, builder};
  demo->pending++;
  lprojd_localizer_format_async(l, "files.selected", NULL, g_variant_new("(x)", (gint64)3), NULL, NULL,
                                on_files_formatted, pending);
}

static void on_changed(LprojdLocalizer *localizer, LprojdChange what, gpointer data) {
  (void)localizer;
  render(data, what);
}

/* A command's result: its error, if any, is reported. */
typedef struct {
  Demo *demo;
  char *line;
  gboolean (*finish)(LprojdLocalizer *, GAsyncResult *, GError **);
} Command;

static void on_command_done(GObject *source, GAsyncResult *result, gpointer data) {
  Command *command = data;
  g_autoptr(GError) error = NULL;
  if (!command->finish(LPROJD_LOCALIZER(source), result, &error)) {
    g_autofree char *message = g_strdup_printf("%s: %s", command->line, error->message);
    report(message);
  }
  command->demo->pending--;
  quit_when_done(command->demo);
  g_free(command->line);
  g_free(command);
}

static Command *command_new(Demo *demo, const char *line,
                            gboolean (*finish)(LprojdLocalizer *, GAsyncResult *, GError **)) {
  Command *command = g_new0(Command, 1);
  command->demo = demo;
  demo->pending++;
  command->line = g_strdup(line);
  command->finish = finish;
  return command;
}

/* select and reset ask lprojd without blocking; the `changed` signal renders. */
static void run_command(Demo *demo, const char *line) {
  g_auto(GStrv) words = g_strsplit(line, " ", -1);
  guint count = g_strv_length(words);
  if (count == 2 && strcmp(words[0], "select") == 0) {
    lprojd_localizer_select_async(demo->localizer, words[1], NULL, on_command_done,
                                  command_new(demo, line, lprojd_localizer_select_finish));
  } else if (count == 1 && strcmp(words[0], "reset") == 0) {
    lprojd_localizer_reset_async(demo->localizer, NULL, on_command_done, command_new(demo, line, lprojd_localizer_reset_finish));
  } else if (count == 1 && strcmp(words[0], "quit") == 0) {
    demo->quitting = TRUE;
    quit_when_done(demo);
  } else {
    g_autofree char *message = g_strdup_printf("unknown command: %s", line);
    report(message);
  }
}

static gboolean on_input(int fd, GIOCondition condition, gpointer data);

/* The localizer is ready (the main loop ran meanwhile): the first render,
 * then a render on every change, and commands from standard input. */
static void on_created(GObject *source, GAsyncResult *result, gpointer data) {
  (void)source;
  Demo *demo = data;
  g_autoptr(GError) error = NULL;
  demo->localizer = lprojd_localizer_new_finish(result, &error);
  if (demo->localizer == NULL) {
    fprintf(stderr, "lprojd-c-demo: %s\n", error->message);
    demo->status = 1;
    g_main_loop_quit(demo->loop);
    return;
  }
  render(demo, 0);
  g_signal_connect(demo->localizer, "changed", G_CALLBACK(on_changed), demo);
  g_unix_fd_add(STDIN_FILENO, G_IO_IN | G_IO_HUP, on_input, demo);
}

/* Standard input is read as it comes, on the main loop, a line at a time;
 * its end ends the app, after a last line without a newline (and what it
 * asked of lprojd). */
static gboolean on_input(int fd, GIOCondition condition, gpointer data) {
  (void)condition;
  Demo *demo = data;
  char chunk[4096];
  ssize_t length = read(fd, chunk, sizeof chunk);
  if (length < 0 && (errno == EINTR || errno == EAGAIN)) return G_SOURCE_CONTINUE;
  if (length <= 0) {
    if (demo->input->len > 0 && !demo->quitting) run_command(demo, g_strstrip(demo->input->str));
    demo->quitting = TRUE;
    quit_when_done(demo);
    return G_SOURCE_REMOVE;
  }
  g_string_append_len(demo->input, chunk, length);
  char *end;
  while (!demo->quitting && (end = memchr(demo->input->str, '\n', demo->input->len)) != NULL) {
    g_autofree char *line = g_strndup(demo->input->str, (gsize)(end - demo->input->str));
    g_string_erase(demo->input, 0, end - demo->input->str + 1);
    run_command(demo, g_strstrip(line));
  }
  return demo->quitting ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
  const char *socket_path = NULL, *client = "org.lprojd.CDemo";
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--socket") == 0 && i + 1 < argc) socket_path = argv[++i];
    else if (strcmp(argv[i], "--client") == 0 && i + 1 < argc) client = argv[++i];
    else {
      fprintf(stderr, "usage: lprojd-c-demo [--socket PATH] [--client ID]\n");
      return 2;
    }
  }
  /* Standard output carries the JSON lines only: GLib's info and debug
   * messages (G_MESSAGES_DEBUG) go to standard error. */
  g_log_writer_default_set_use_stderr(TRUE);
  Demo demo = {.loop = g_main_loop_new(NULL, FALSE), .input = g_string_new(NULL)};
  lprojd_localizer_new_async("demo", client, socket_path, NULL, on_created, &demo);
  g_main_loop_run(demo.loop);
  g_clear_object(&demo.localizer);
  g_main_loop_unref(demo.loop);
  g_string_free(demo.input, TRUE);
  return demo.status;
}
