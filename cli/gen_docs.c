/* gen_docs.c — the man page and the shell completions, generated from the tables gpulab runs on: the
 * command table (names, usage, options, prose), the common options, the topic table (topics, variants,
 * parameters), the view table and the lessons.  A command, topic, view or lesson added to its table
 * appears in `man gpulab` and in completion without touching this file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kernels/registry.h"
#include "lessons/exercise.h"
#include "lessons/lesson.h"
#include "run_options.h"
#include "visualize/view.h"

static bool refused_format(const struct gl_cmd *cmd, const struct gl_opt *o);

/* ---- the man page */

/* roff text: backslashes doubled, a line starting with '.' or '\'' guarded, '-' as a minus sign. */
static void roff(FILE *out, const char *s)
{
	bool bol = true;
	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", out);
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else
			fputc(*s, out);
		bol = *s == '\n';
	}
}

static void man_opts(FILE *out, const struct gl_cmd *cmd, const struct gl_opt *opts)
{
	for (const struct gl_opt *o = opts; o && (o->name || o->short_name); o++) {
		if (refused_format(cmd, o))
			continue;
		fputs(".TP\n", out);
		if (o->short_name)
			fprintf(out, "\\fB\\-%c\\fR%s", o->short_name, o->name ? ", " : "");
		if (o->name) {
			fputs("\\fB\\-\\-", out);
			roff(out, o->name);
			fputs("\\fR", out);
		}
		if (o->value) {
			fputs(" \\fI", out);
			roff(out, o->value);
			fputs("\\fR", out);
		}
		fputc('\n', out);
		roff(out, o->help ? o->help : "");
		fputc('\n', out);
	}
}

/* Prose as it is in --help: one line per line, indentation kept (.nf/.fi). */
static void man_prose(FILE *out, const char *text)
{
	fputs(".nf\n", out);
	roff(out, text);
	if (text[0] && text[strlen(text) - 1] != '\n')
		fputc('\n', out);
	fputs(".fi\n", out);
}

static void man_commands(FILE *out)
{
	fputs(".SH COMMANDS\n", out);
	for (const struct gl_cmd *const *c = gl_cmd_table; *c; c++) {
		const struct gl_cmd *cmd = *c;
		fputs(".SS \"gpulab ", out);
		roff(out, cmd->name);
		fputs("\"\n.nf\n\\fBgpulab ", out);
		roff(out, cmd->name);
		fputs("\\fR ", out);
		roff(out, cmd->usage);
		fputs("\n.fi\n.PP\n", out);
		roff(out, cmd->summary);
		fputc('\n', out);
		if (cmd->help) {
			fputs(".PP\n", out);
			man_prose(out, cmd->help);
		}
		if (cmd->opts && (cmd->opts->name || cmd->opts->short_name)) {
			fputs(".PP\nOptions:\n", out);
			man_opts(out, cmd, cmd->opts);
		}
	}
}

static void man_topics(FILE *out)
{
	fputs(".SH TOPICS\nEach topic is a set of kernel variants with parameters (\\fBgpulab list TOPIC\\fR).\n", out);
	for (const struct gl_topic *const *t = gl_topics; *t; t++) {
		fputs(".TP\n\\fB", out);
		roff(out, (*t)->name);
		fputs("\\fR\n", out);
		roff(out, (*t)->summary);
		fputs(".\nVariants:", out);
		for (int i = 0; i < (*t)->nvariants; i++) {
			fputs(i ? ", " : " ", out);
			roff(out, (*t)->variants[i].name);
		}
		fputs(".\nParameters:", out);
		for (int i = 0; i < (*t)->nparams; i++) {
			fprintf(out, "%s\\-\\-", i ? ", " : " ");
			roff(out, (*t)->params[i].name);
			fprintf(out, " (default %ld)", (*t)->params[i].def);
		}
		fputs(".\n", out);
	}
}

/* Each view: what a step shows, its point, the topic (and variant) it implies. */
static void man_views(FILE *out)
{
	fputs(".SH VIEWS\n\\fBgpulab view NAME\\fR replays a stored trace step by step (\\fB] [\\fR: the next or "
	      "previous step that shows the view's point).\n", out);
	for (const struct view_entry *v = view_table; v->name; v++) {
		fputs(".TP\n\\fBgpulab view ", out);
		roff(out, v->name);
		fputs("\\fR\n", out);
		roff(out, v->summary ? v->summary : "");
		fputs(".\n.br\nPoint: ", out);
		roff(out, v->ops->point ? v->ops->point : "none");
		if (v->topic) {
			fputs(".\nTopic: ", out);
			roff(out, v->topic);
			if (v->variant) {
				fputs(", variant ", out);
				roff(out, v->variant);
			}
			fputs(" by default", out);
		} else {
			fputs(".\nAny topic, with --topic T", out);
		}
		fputs(".\n", out);
	}
}

/* Each exercise by name and title, from the embedded set (or $GPULAB_EXERCISES). */
static void man_exercises(FILE *out)
{
	struct exercise *ex = NULL;
	int n = 0;
	struct gl_err err = {0};
	if (exercise_list(&ex, &n, &err) != GL_OK)
		return;
	fputs(".SH EXERCISES\n\\fBgpulab exercise start NAME\\fR writes the starter file of one of these; "
	      "\\fBgpulab exercise check NAME\\fR checks the kernel written in it:\n", out);
	for (int i = 0; i < n; i++) {
		fputs(".TP\n\\fB", out);
		roff(out, ex[i].name);
		fputs("\\fR\n", out);
		roff(out, ex[i].title ? ex[i].title : "");
		fputc('\n', out);
	}
	exercise_list_free(ex, n);
}

static void man_views_lessons(FILE *out)
{
	man_views(out);
	struct lesson_file *files = NULL;
	int n = 0;
	char origin[600];
	struct gl_err err = {0};
	if (lesson_files_list(&files, &n, origin, sizeof origin, &err) != GL_OK)
		return;
	fputs(".SH LESSONS\n\\fBgpulab lesson start NAME\\fR starts one of:\n", out);
	for (int i = 0; i < n; i++) {
		fputs(".TP\n\\fB", out);
		roff(out, files[i].name);
		fputs("\\fR\n", out);
		const char *title = files[i].text && strncmp(files[i].text, "# ", 2) == 0 ? files[i].text + 2 : "";
		fprintf(out, "%.*s\n", (int)strcspn(title, "\n"), title);
	}
	lesson_files_free(files, n);
}

static const char man_tail[] =
	".SH EXIT STATUS\n"
	".TP\n0\nsuccess\n.TP\n1\na variant failed verification, or the sanitizer found errors, or a lesson check failed\n"
	".TP\n2\nusage or input error (an unknown option, a value out of range, a format the command cannot print)\n"
	".TP\n3\nenvironment: no GPU for \\-\\-backend cuda, no driver, a database that cannot be opened or written\n"
	".SH ENVIRONMENT\n"
	".TP\nGPULAB_DB\nthe results database when \\-\\-db is not given\n"
	".TP\nXDG_DATA_HOME\nthe database defaults to $XDG_DATA_HOME/gpulab/gpulab.db (else ~/.local/share/gpulab)\n"
	".TP\nXDG_CACHE_HOME\nwhere \\fBgpulab sim\\fR caches the PTX nvcc made\n"
	".TP\nGPULAB_LESSONS\na directory of lesson files used instead of the built\\-in ones\n"
	".TP\nGPULAB_LOCK_WAIT_S\nhow long a finished run waits for a locked database before it is spooled (default 600)\n"
	".TP\nGPULAB_NVCC, GPULAB_NVCC_TIMEOUT, CUDA_HOME\nthe nvcc \\fBgpulab sim\\fR runs on a .cu file, and its time limit\n"
	".TP\nGPULAB_CUPTI_LIB\nthe CUPTI library to load\n"
	".TP\nGPULAB_SAVE_COUNTERDATA\na directory where the cuda backend keeps CUPTI's counter images\n"
	".TP\nNO_COLOR\nwhen set and not empty, no colour (as \\-\\-color never) unless \\-\\-color always\n"
	".TP\nPAGER\nthe pager of long lesson pages on a terminal (default less \\-R)\n"
	".TP\nCOLUMNS\nthe width lesson text is reflowed to when the terminal does not say (default 80)\n"
	".TP\nTERM, ESCDELAY\nthe terminal of the views; TERM=dumb is refused (use \\-\\-frames N)\n"
	".TP\nTMPDIR\ntemporary files of nvcc\n"
	".SH FILES\n"
	".TP\n$XDG_DATA_HOME/gpulab/gpulab.db\nthe results database (SQLite): runs, launches, metrics, traces, lesson progress\n"
	".TP\nPREFIX/share/gpulab/lessons, PREFIX/share/doc/gpulab\nthe lessons and the documentation\n"
	".TP\nPREFIX/share/bash-completion/completions/gpulab, PREFIX/share/zsh/site-functions/_gpulab\nshell completion\n"
	".SH SEE ALSO\n\\fBgpulab help COMMAND\\fR, README.md and docs/ in the source tree.\n";

void gl_gen_man(FILE *out)
{
	fprintf(out, ".\\\" gpulab.1 — generated by 'gpulab help --man' from gpulab's tables; do not edit\n"
		     ".TH GPULAB 1 \"\" \"gpulab %s\" \"User Commands\"\n"
		     ".SH NAME\ngpulab \\- run instrumented GPU kernels and see what they do to the memory system\n"
		     ".SH SYNOPSIS\n\\fBgpulab\\fR [\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]\n"
		     ".br\n\\fBgpulab help\\fR [\\fICOMMAND\\fR]\n.br\n\\fBgpulab version\\fR\n"
		     ".SH DESCRIPTION\ngpulab runs CUDA kernel variants on an NVIDIA GPU through CUPTI, or elsewhere in its\n"
		     "own PTX simulator, verifies them, stores their memory metrics in a database and shows them as\n"
		     "tables, views and lessons.  Options may come before the command or after it.\n"
		     ".SH OPTIONS\nEvery command takes these (a command that cannot print JSON or CSV refuses them):\n",
		GPULAB_VERSION);
	man_opts(out, NULL, gl_common_opts);
	man_opts(out, NULL, gl_version_opt);
	man_commands(out);
	man_topics(out);
	man_views_lessons(out);
	man_exercises(out);
	fputs(man_tail, out);
}

/* ---- completion: one candidate function in the syntax bash and zsh share, and a small adapter each */

/* Is o --json or --csv where cmd cannot print it? */
static bool refused_format(const struct gl_cmd *cmd, const struct gl_opt *o)
{
	return cmd && o->name &&
	       ((strcmp(o->name, "json") == 0 && (cmd->no_formats & GL_NO_JSON)) ||
		(strcmp(o->name, "csv") == 0 && (cmd->no_formats & GL_NO_CSV)));
}

static void words_of_opts(FILE *out, const struct gl_cmd *cmd, const struct gl_opt *opts, bool values_only)
{
	for (const struct gl_opt *o = opts; o && (o->name || o->short_name); o++) {
		if ((values_only && o->kind == GL_OPT_FLAG) || refused_format(cmd, o))
			continue;
		if (o->name)
			fprintf(out, " --%s", o->name);
		if (o->short_name)
			fprintf(out, " -%c", o->short_name);
	}
}

static void topic_param_words(FILE *out, bool values_only)
{
	struct gl_opt params[128];
	gl_topic_param_options(params, 128, 0);
	words_of_opts(out, NULL, params, values_only);
}

/* __gpulab_params TOPIC: the topic's parameters as options (every topic's when it is not known yet). */
static void gen_param_cases(FILE *out)
{
	fputs("__gpulab_params() {\n\tcase $1 in\n", out);
	for (const struct gl_topic *const *t = gl_topics; *t; t++) {
		fprintf(out, "\t%s) echo", (*t)->name);
		for (int i = 0; i < (*t)->nparams; i++)
			fprintf(out, " --%s", (*t)->params[i].name);
		fputs(" ;;\n", out);
	}
	fputs("\t*) echo", out);
	topic_param_words(out, false);
	fputs(" ;;\n\tesac\n}\n", out);
}

/* __gpulab_opts CMD TOPIC: the options of CMD (a topic's parameters only for TOPIC, once it is known);
 * __gpulab_valued CMD: those that take a value (every topic's parameters, to skip their values). */
static void gen_option_cases(FILE *out, bool values_only)
{
	fprintf(out, "__gpulab_%s() {\n\tcase $1 in\n", values_only ? "valued" : "opts");
	for (const struct gl_cmd *const *c = gl_cmd_table; *c; c++) {
		fprintf(out, "\t%s) echo", (*c)->name);
		words_of_opts(out, *c, (*c)->opts, values_only);
		if ((*c)->topic_params && values_only)
			topic_param_words(out, values_only);
		words_of_opts(out, *c, gl_common_opts, values_only);
		if ((*c)->topic_params && !values_only)
			fputs("; __gpulab_params \"$2\"", out);
		fputs(" ;;\n", out);
	}
	fputs("\t'') echo", out); /* before the command */
	words_of_opts(out, NULL, gl_common_opts, values_only);
	words_of_opts(out, NULL, gl_version_opt, values_only);
	fputs(" ;;\n\tesac\n}\n", out);
}

static void gen_lists(FILE *out)
{
	fputs("__gpulab_commands='", out);
	for (const struct gl_cmd *const *c = gl_cmd_table; *c; c++)
		fprintf(out, "%s ", (*c)->name);
	fputs("help version'\n__gpulab_topics='", out);
	for (const struct gl_topic *const *t = gl_topics; *t; t++)
		fprintf(out, "%s%s", t == gl_topics ? "" : " ", (*t)->name);
	fputs("'\n__gpulab_views='", out); /* the views, then the topics whose name is not a view's */
	for (const struct view_entry *v = view_table; v->name; v++)
		fprintf(out, "%s%s", v == view_table ? "" : " ", v->name);
	for (const struct gl_topic *const *t = gl_topics; *t; t++)
		if (!view_find((*t)->name))
			fprintf(out, " %s", (*t)->name);
	fputs("'\n__gpulab_exercises='", out);
	struct exercise *ex = NULL;
	int nex = 0;
	struct gl_err exerr = {0};
	if (exercise_list(&ex, &nex, &exerr) == GL_OK) {
		for (int i = 0; i < nex; i++)
			fprintf(out, "%s%s", i ? " " : "", ex[i].name);
		exercise_list_free(ex, nex);
	}
	fputs("'\n__gpulab_lessons='", out);
	struct lesson_file *files = NULL;
	int n = 0;
	char origin[600];
	struct gl_err err = {0};
	if (lesson_files_list(&files, &n, origin, sizeof origin, &err) == GL_OK) {
		for (int i = 0; i < n; i++)
			fprintf(out, "%s%s", i ? " " : "", files[i].name);
		lesson_files_free(files, n);
	}
	fputs("'\n__gpulab_variants() {\n\tcase $1 in\n", out);
	for (const struct gl_topic *const *t = gl_topics; *t; t++) {
		fprintf(out, "\t%s) echo all", (*t)->name);
		for (int i = 0; i < (*t)->nvariants; i++)
			fprintf(out, " %s", (*t)->variants[i].name);
		fputs(" ;;\n", out);
	}
	fputs("\tesac\n}\n__gpulab_view_topic() {\n\tcase $1 in\n", out); /* the topic a view implies */
	for (const struct view_entry *v = view_table; v->name; v++)
		if (v->topic)
			fprintf(out, "\t%s) echo %s ;;\n", v->name, v->topic);
	fputs("\tesac\n}\n", out);
}

/* What the first positional argument of each command is; a lesson's second is a lesson name. */
static void gen_positional(FILE *out)
{
	fputs("__gpulab_positional() { # CMD INDEX SUBCOMMAND\n\tcase $1 in\n\thelp) [ \"$2\" = 0 ] && "
	      "echo $__gpulab_commands ;;\n",
	      out);
	for (const struct gl_cmd *const *c = gl_cmd_table; *c; c++) {
		const struct gl_cmd *cmd = *c;
		fprintf(out, "\t%s)", cmd->name);
		if (cmd->subcommands) {
			fputs(" if [ \"$2\" = 0 ]; then echo", out);
			for (const char *const *s = cmd->subcommands; *s; s++)
				fprintf(out, " %s", *s);
			fputs("; else", out);
		}
		const char *what = cmd->complete ? cmd->complete : "";
		const char *idx = cmd->subcommands ? "1" : "0";
		if (strcmp(what, "topic") == 0)
			fprintf(out, " [ \"$2\" = %s ] && echo $__gpulab_topics", idx);
		else if (strcmp(what, "view") == 0)
			fprintf(out, " [ \"$2\" = %s ] && echo $__gpulab_views", idx);
		else if (strcmp(what, "exercise") == 0) /* check NAME FILE: a file after the name */
			fprintf(out, " if [ \"$2\" = %s ]; then echo $__gpulab_exercises; elif [ \"$2\" = 2 ] && "
				"[ \"$3\" = check ]; then echo @file; fi", idx);
		else if (strcmp(what, "lesson") == 0)
			fprintf(out, " [ \"$2\" = %s ] && echo $__gpulab_lessons", idx);
		else if (strcmp(what, "file") == 0)
			fputs(" echo @file", out);
		else
			fputs(" :", out);
		fputs(cmd->subcommands ? "; fi ;;\n" : " ;;\n", out);
	}
	fputs("\tesac\n}\n", out);
}

static const char candidates_fn[] =
	"# __gpulab_candidates CUR WORD...: what may come at CUR after the words before it (without 'gpulab');\n"
	"# '@file' asks the shell for file names.\n"
	"__gpulab_candidates() {\n"
	"\tlocal cur=$1 cmd= topic= sub= want= npos=0 w\n"
	"\tshift\n"
	"\twhile [ $# -gt 0 ]; do\n"
	"\t\tw=$1\n"
	"\t\tshift\n"
	"\t\tif [ -n \"$want\" ]; then\n"
	"\t\t\t[ \"$want\" = --topic ] && topic=$w\n"
	"\t\t\twant=\n"
	"\t\t\tcontinue\n"
	"\t\tfi\n"
	"\t\tcase $w in\n"
	"\t\t--*=*) ;;\n"
	"\t\t-*) case \" $(__gpulab_valued \"$cmd\") \" in *\" $w \"*) want=$w ;; esac ;;\n"
	"\t\t*)\n"
	"\t\t\tif [ -z \"$cmd\" ]; then cmd=$w\n"
	"\t\t\telse\n"
	"\t\t\t\t[ $npos = 0 ] && sub=$w\n"
	"\t\t\t\tcase \" $__gpulab_topics \" in *\" $w \"*) [ -z \"$topic\" ] && topic=$w ;; esac\n"
	"\t\t\t\t[ \"$cmd\" = view ] && [ $npos = 0 ] && [ -z \"$topic\" ] && topic=$(__gpulab_view_topic \"$w\")\n"
	"\t\t\t\tnpos=$((npos + 1))\n"
	"\t\t\tfi ;;\n"
	"\t\tesac\n"
	"\tdone\n"
	"\tcase $want in\n"
	"\t'') ;;\n"
	"\t--variant|--baseline) w=$(__gpulab_variants \"$topic\"); [ \"$cmd\" = view ] && w=${w#all }; echo $w; return ;;\n"
	"\t--topic) echo $__gpulab_topics; return ;;\n"
	"\t--color) echo auto always never; return ;;\n"
	"\t--backend) echo auto cuda sim; return ;;\n"
	"\t--db|--save-config|--trace-out|--out|-I) echo @file; return ;;\n"
	"\t*) return ;;\n"
	"\tesac\n"
	"\tcase $cur in\n"
	"\t-*) __gpulab_opts \"$cmd\" \"$topic\"; return ;;\n"
	"\tesac\n"
	"\tif [ -z \"$cmd\" ]; then echo $__gpulab_commands; return; fi\n"
	"\t__gpulab_positional \"$cmd\" \"$npos\" \"$sub\"\n"
	"}\n";

static const char bash_tail[] =
	"_gpulab() {\n"
	"\tlocal cur=${COMP_WORDS[COMP_CWORD]} c\n"
	"\tc=$(__gpulab_candidates \"$cur\" \"${COMP_WORDS[@]:1:COMP_CWORD-1}\")\n"
	"\tif [ \"$c\" = @file ]; then\n"
	"\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	"\telse\n"
	"\t\tCOMPREPLY=($(compgen -W \"$c\" -- \"$cur\"))\n"
	"\tfi\n"
	"}\n"
	"complete -o filenames -F _gpulab gpulab\n";

static const char zsh_tail[] =
	"_gpulab() {\n"
	"\tlocal c\n"
	"\tc=$(__gpulab_candidates \"${words[CURRENT]}\" \"${(@)words[2,CURRENT-1]}\")\n"
	"\tif [[ $c == @file ]]; then\n"
	"\t\t_files\n"
	"\telse\n"
	"\t\tcompadd -- ${=c}\n"
	"\tfi\n"
	"}\n"
	"_gpulab \"$@\"\n";

int gl_gen_completion(struct gl_ctx *ctx, const char *shell, FILE *out)
{
	bool zsh = strcmp(shell, "zsh") == 0;
	if (!zsh && strcmp(shell, "bash") != 0)
		return gl_errf(&ctx->err, GL_EUSAGE, "completion is generated for bash or zsh, not '%s'", shell);
	if (zsh)
		fputs("#compdef gpulab\n", out);
	fprintf(out, "# %s completion for gpulab %s — generated by 'gpulab completion %s' from gpulab's command,\n"
		     "# topic, view and lesson tables; do not edit.\n",
		shell, GPULAB_VERSION, shell);
	gen_lists(out);
	gen_param_cases(out);
	gen_option_cases(out, false);
	gen_option_cases(out, true);
	gen_positional(out);
	fputs(candidates_fn, out);
	fputs(zsh ? zsh_tail : bash_tail, out);
	return GL_OK;
}
